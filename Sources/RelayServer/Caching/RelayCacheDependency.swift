import RelayCore

/// What a cached answer depends on: all served data, or the data of one feed (the answers keyed by a feed
/// or by one of its posts, which only that feed's changes and the posts pointing at it can change).
enum RelayCacheDependency: Sendable, Hashable {
    /// Any write may change it: the feed list, statistics, search, groups, threads, global RSS.
    case global
    /// Only a change recorded for this feed (or one that changes everything) can change it.
    case feed(String)
}

/// The last generation that changed each feed's answers, as far as this process has read the store's record
/// (``RelayCore/RelayFeedChanges``) since it started: answers computed since then are checked against it.
struct RelayFeedVersions: Sendable, Hashable {
    /// The generation the record was read through.
    private(set) var generation: Int
    /// Counts the times the store's generation went back (a database replaced by an older or new one):
    /// answers computed in another epoch never hold.
    private(set) var epoch = 0
    /// The last generation that changed every feed's answers (at first, the generation this process
    /// started from: nothing cached is older).
    private(set) var everything: Int
    /// The feeds changed since, each with its last change.
    private var feeds: [String: Int] = [:]

    /// Versions for a process that starts reading at `generation`.
    init(startingAt generation: Int) {
        self.generation = generation
        everything = generation
    }

    /// The last generation that changed `feed`'s answers.
    func lastChange(of feed: String) -> Int {
        max(everything, feeds[feed] ?? everything)
    }

    /// Whether an answer computed at generation `computed` of `epoch` with `dependency` still holds at
    /// generation `current`.
    func holds(_ dependency: RelayCacheDependency, computedAt computed: Int, epoch: Int, current: Int) -> Bool {
        guard epoch == self.epoch else { return false }
        switch dependency {
        case .global: return computed == current
        case .feed(let feed): return computed >= lastChange(of: feed)
        }
    }

    /// These versions for a store whose generation is now `current` (lower than ``generation`` when the
    /// database was replaced): a new epoch in which nothing cached holds.
    func restarting(at current: Int) -> RelayFeedVersions {
        var next = RelayFeedVersions(startingAt: current)
        next.epoch = epoch + 1
        return next
    }

    /// These versions with the changes read from the store added.
    func adding(_ changes: RelayFeedChanges) -> RelayFeedVersions {
        var next = self
        next.generation = max(generation, changes.through)
        if let everything = changes.everything { next.everything = max(next.everything, everything) }
        for (feed, changed) in changes.feeds { next.feeds[feed] = max(next.feeds[feed] ?? changed, changed) }
        return next
    }
}
