import Foundation
import OrgSocial
import OrgSocialClient

/// `timeline-example`: a small program that uses the OrgSocialClient library to read feeds and print a
/// timeline, the way `orgsocial timeline` does, in about a hundred lines.
///
/// ```
/// swift run timeline-example https://example.org/social.org      # the feeds that feed follows
/// swift run timeline-example --relay https://relay.org-social.org # a relay's public timeline
/// swift run timeline-example --relay URL --search emacs           # a relay search, with the posts' text
/// ```
@main
struct TimelineExample {
    /// Reads the arguments and prints the timeline or the search results.
    static func main() async {
        var arguments = Array(CommandLine.arguments.dropFirst())
        var relayURL: String?
        var searchText: String?
        if let index = arguments.firstIndex(of: "--relay"), index + 1 < arguments.count {
            relayURL = arguments[index + 1]
            arguments.removeSubrange(index...(index + 1))
        }
        if let index = arguments.firstIndex(of: "--search"), index + 1 < arguments.count {
            searchText = arguments[index + 1]
            arguments.removeSubrange(index...(index + 1))
        }
        let ownFeedURL = arguments.first
        guard ownFeedURL != nil || relayURL != nil else {
            print("usage: timeline-example FEED_URL | --relay RELAY_URL [--search TEXT]")
            exit(2)
        }

        // One fetcher for every download: it keeps the limits (16 at once, 4 per host) and a disk cache,
        // so a second run sends conditional requests and gets 304s.
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("timeline-example-cache")
        let fetcher = FeedFetcher(configuration: FeedFetcher.Configuration(cacheDirectory: cache))

        do {
            if let relayURL, let searchText {
                try await search(searchText, relayURL: relayURL, fetcher: fetcher)
            } else {
                try await printTimeline(ownFeedURL: ownFeedURL, relayURL: relayURL, fetcher: fetcher)
            }
        } catch {
            print("error: \(error.localizedDescription)")
            exit(1)
        }
    }

    /// Prints the newest posts of the feeds `ownFeedURL` follows (or of a relay's feeds).
    static func printTimeline(ownFeedURL: String?, relayURL: String?, fetcher: FeedFetcher) async throws {
        if let ownFeedURL, let url = URL(string: ownFeedURL) {
            // FeedFetcher reads one feed: the parsed Feed, and whether it was downloaded or unchanged.
            let own = try await fetcher.fetch(url)
            print("\(own.feed.profile.nick ?? ownFeedURL) follows \(own.feed.profile.follows.count) feeds")
        }
        var options = TimelineOptions(relayURL: relayURL, useRelay: relayURL != nil)
        options.maxPostAgeDays = 30
        let timeline = try await TimelineFetcher(options: options, fetcher: fetcher).fetchTimeline(
            ownFeedURL: ownFeedURL)
        for entry in timeline.posts.prefix(20) {
            print("\(entry.author.displayName) · \(entry.post.id ?? "")")
            print("  \(entry.post.body.replacingOccurrences(of: "\n", with: "\n  "))")
            print("  \(entry.url)\n")
        }
        let failed = timeline.failures.count
        print("\(timeline.posts.count) posts from \(timeline.statuses.count) feeds (\(failed) could not be read)")
    }

    /// Searches a relay and prints each post's author and text (the relay answers with URLs only).
    static func search(_ text: String, relayURL: String, fetcher: FeedFetcher) async throws {
        let relay = try RelayClient(baseURL: relayURL)
        let page = try await relay.search(.text(text))
        let found = await PostLookup(fetcher: fetcher).posts(at: page.posts)
        for url in page.posts {
            switch found[url] {
            case .found(let entry): print("\(entry.author.displayName): \(entry.post.body)\n  \(url)\n")
            case .failed(let reason): print("\(url) (\(reason))\n")
            case nil: print(url)
            }
        }
        print("\(page.total) found")
    }
}
