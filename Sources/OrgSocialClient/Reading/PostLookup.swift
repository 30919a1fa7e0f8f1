import Foundation
import OrgSocial

/// Finds posts from their URLs (`<feed URL>#<post ID>`): reads each feed they name once, concurrently,
/// through a ``FeedFetcher`` (so with its cache, limits and conditional requests), and returns each post
/// with its author, or a short reason why it could not be found. A relay answers with post URLs only;
/// this turns them into something a person can read.
///
/// ```swift
/// let lookup = PostLookup(fetcher: FeedFetcher())
/// let found = await lookup.posts(at: ["https://example.org/social.org#2026-01-01T10:00:00+0100"])
/// for (url, outcome) in found {
///     switch outcome {
///     case .found(let entry): print(entry.author.displayName, entry.post.body)
///     case .failed(let reason): print(url, reason)
///     }
/// }
/// ```
public struct PostLookup: Sendable {
    /// What was found at one post URL.
    public enum Outcome: Sendable {
        /// The post and its author.
        case found(TimelinePost)
        /// Why the post could not be shown, in a few words (e.g. `HTTP 404`, `no post with this ID`).
        case failed(String)
    }

    /// What reads the feeds.
    public let fetcher: FeedFetcher

    /// The reason of ``Outcome/failed(_:)`` when the feed was read and has no post with the ID.
    public static let missingPostReason = "no post with this ID in the feed (deleted or edited?)"

    /// Makes a lookup over a fetcher.
    /// - Parameter fetcher: the feed fetcher; share one so that its limits and cache apply.
    public init(fetcher: FeedFetcher = FeedFetcher()) {
        self.fetcher = fetcher
    }

    /// Finds each post; never throws. Each feed is read once however many of its posts are asked for.
    /// - Parameter urls: the post URLs.
    /// - Returns: the outcome for every URL given.
    public func posts(at urls: [String]) async -> [String: Outcome] {
        var references: [String: PostReference] = [:]
        var outcomes: [String: Outcome] = [:]
        for url in urls {
            if let reference = PostReference(parsing: url) {
                references[url] = reference
            } else {
                outcomes[url] = .failed("not a post URL (<feed URL>#<post ID>)")
            }
        }
        let feedURLs = Set(references.values.map(\.feedURL))
        let feeds = await withTaskGroup(of: (String, FeedOutcome).self) { group in
            for feedURL in feedURLs {
                group.addTask { (feedURL, await read(feedURL)) }
            }
            var feeds: [String: FeedOutcome] = [:]
            for await (feedURL, result) in group { feeds[feedURL] = result }
            return feeds
        }
        for (url, reference) in references {
            switch feeds[reference.feedURL] {
            case .read(let feed):
                let author = TimelineAuthor(feed: feed, feedURL: reference.feedURL)
                if let post = feed.posts.first(where: { $0.id == reference.postID }),
                    let entry = TimelinePost(lookingUp: post, author: author)
                {
                    outcomes[url] = .found(entry)
                } else {
                    outcomes[url] = .failed(Self.missingPostReason)
                }
            case .failed(let reason):
                outcomes[url] = .failed(reason)
            case nil:
                outcomes[url] = .failed("the feed was not read")
            }
        }
        return outcomes
    }

    /// A feed read, or why it was not.
    private enum FeedOutcome: Sendable {
        /// The feed.
        case read(Feed)
        /// A short reason.
        case failed(String)
    }

    /// Reads one feed, turning any error into a short reason.
    private func read(_ feedURL: String) async -> FeedOutcome {
        guard let url = URL(string: feedURL) else { return .failed("not a URL") }
        do {
            return .read(try await fetcher.fetch(url).feed)
        } catch let error as OrgSocialClientError {
            return .failed(Self.shortReason(error))
        } catch {
            return .failed(error.localizedDescription)
        }
    }

    /// A few words for a fetch error, without the advice the full description adds.
    /// - Parameter error: the error.
    /// - Returns: The reason, in a few words.
    static func shortReason(_ error: OrgSocialClientError) -> String {
        switch error {
        case .notFound: "HTTP 404 (not found)"
        case .fetchFailed(_, let statusCode): "HTTP \(statusCode)"
        case .networkError(_, let message): message
        case .feedTooLarge(_, let limit): "larger than \(limit) bytes"
        case .notAFeed(_, let reason): "not a feed: \(reason)"
        case .timedOut(_, let after): "no answer within \(after.components.seconds) s"
        case .invalidURL(_, let reason): reason
        default: error.localizedDescription
        }
    }
}
