import Foundation
import OrgSocial

extension TimelineFetcher {
    /// Why a mirror could not be used for a timeline.
    struct MirrorFailure: Error {
        var reason: String
    }

    /// The most pages of a mirror's `posts/` one timeline reads.
    static let mirrorPageLimit = 20

    /// The timeline through a mirror: the own feed (already read), the followed feeds'
    /// posts from the mirror's `posts/` (`scope=all` without an own feed), page by page until
    /// ``TimelineOptions/mirrorPostCount`` posts are shown or the mirror has no more, and the followed
    /// feeds the mirror does not have (no post in its answer, and `profile/` fails for them) read
    /// directly, with `extraFeeds`.
    /// - Returns: The timeline, or why the mirror could not be used (its `posts/` failed).
    func fetchFromMirror(
        _ mirror: MirrorClient, ownFeedURL: String?, own ownRead: OwnFeed, extraFeeds: [String],
        progress: (@Sendable (TimelineProgress) -> Void)?
    ) async throws -> Result<Timeline, MirrorFailure> {
        var feeds: [FetchedFeed] = []
        var statuses = ownRead.statuses
        let own = ownRead.feed
        if let own, let ownFeedURL { feeds.append(FetchedFeed(url: ownFeedURL, feed: own)) }
        var follows: [String] = []
        var seen: Set<String> = ownFeedURL.map { [FeedURL.normalized($0)] } ?? []
        for url in (own?.profile.follows.map(\.url) ?? []).map(FeedURL.normalized)
        where seen.insert(url).inserted && !options.blocks(feedURL: url) {
            follows.append(url)
        }
        let scope: MirrorPostScope = ownFeedURL == nil && own == nil ? .all : .following(follows)
        var posts: [TimelinePost] = []
        if scope != .following([]) {
            do {
                posts = try await mirrorPosts(mirror, scope: scope, ownFeedURL: ownFeedURL)
            } catch let error as CancellationError {
                throw error
            } catch {
                return .failure(MirrorFailure(reason: error.localizedDescription))
            }
        }
        // A followed feed with no post in the answer may have none lately, or be unknown to the mirror:
        // its profile tells (a mirror may know a followed feed's URL without having read it).
        let answered = Set(posts.map { FeedURL.normalized($0.author.feedURL) })
        let unanswered = follows.filter { !answered.contains($0) }
        let lacking = await withTaskGroup(of: String?.self) { group in
            for feed in unanswered {
                group.addTask { (try? await mirror.profile(of: feed))?.describesAFeedRead == true ? nil : feed }
            }
            var lacking: Set<String> = []
            for await feed in group { if let feed { lacking.insert(feed) } }
            return lacking
        }
        let direct = unanswered.filter(lacking.contains)
        var sources = direct
        for url in extraFeeds.map(FeedURL.normalized) where seen.insert(url).inserted && !options.blocks(feedURL: url) {
            sources.append(url)
        }
        for result in await read(sources, progress: progress) {
            statuses.append(result.status)
            if let fetched = result.fetched { feeds.append(fetched) }
        }
        return .success(
            timeline(
                feeds: feeds, statuses: statuses,
                source: .mirror(url: mirror.baseURL.absoluteString, feedsReadDirectly: direct),
                ownFeedURL: ownFeedURL, more: posts))
    }

    /// The mirror's posts for `scope`, page after page (of ``TimelineOptions/mirrorPostCount`` posts, at
    /// most 100) until enough are shown, newest first;
    /// the own feed's posts are left out (they come from the own feed).
    private func mirrorPosts(_ mirror: MirrorClient, scope: MirrorPostScope, ownFeedURL: String?) async throws
        -> [TimelinePost]
    {
        let filter = TimelineFilter(options: options, userFeedURL: ownFeedURL, now: options.now ?? Date())
        var posts: [TimelinePost] = []
        var shown = 0
        var page = 1
        // Pages of the size wanted, up to the 100 a mirror allows.
        let perPage = min(100, max(1, options.mirrorPostCount))
        while true {
            let answer = try await mirror.posts(
                scope, sinceDays: options.maxPostAgeDays, page: page, perPage: perPage)
            // A group post is shown in its group, not in the timeline (whatever the mirror says its group is).
            for item in answer.items where item.group == nil {
                guard let entry = item.entry else { continue }
                if let ownFeedURL, FeedURL.same(entry.author.feedURL, ownFeedURL) { continue }
                posts.append(entry)
                if filter.exclusion(of: entry.post, inFeed: entry.author.feedURL) == nil { shown += 1 }
            }
            guard answer.hasMore, shown < options.mirrorPostCount, page < Self.mirrorPageLimit else { break }
            page += 1
        }
        return posts
    }
}
