import Foundation

/// A three-way merge of two versions of a feed that both started from a common one: the local file
/// (*ours*), the remote feed (*theirs*) and the version last published from here (the *base*).
///
/// The merge works post by post (posts are matched by ID) and keyword by keyword:
/// - what only one side changed since the base is taken from that side: a post added, edited or
///   deleted, a keyword set, changed or removed;
/// - what both sides changed the same way is taken once;
/// - a post changed differently on both sides (edited on both, edited on one and deleted on the
///   other, added on both with the same ID and different text) or a single-valued keyword set to two
///   different values is a ``FeedMergeConflict``; repeatable keywords (`FOLLOW`, `LINK`, `GROUP`,
///   `CONTACT`) merge line by line and never conflict.
///
/// The result is *our* bytes with *their* changes applied in place: every byte outside the posts and
/// keyword lines that change is kept as it is in the local file. A post added on the remote side goes
/// where its ID puts it among the local posts (by date, the way the spec orders posts), in the remote's
/// wording and converted to the local file's line breaks. An empty base (nothing was published from
/// here yet) makes everything on either side an addition.
///
/// ```swift
/// let merge = FeedMerge(base: lastPublished, ours: local, theirs: remote)
/// if let merged = merge.feed { try write(merged.bytes) } else { show(merge.conflicts) }
/// ```
public struct FeedMerge: Sendable {
    /// What to do with conflicts.
    public enum Resolution: Sendable, Hashable {
        /// Keep them unresolved: ``FeedMerge/feed`` is `nil` when there is any.
        case none
        /// Take the local version of each conflicting item (`git merge -X ours`).
        case ours
        /// Take the remote version of each conflicting item (`git merge -X theirs`).
        case theirs
    }

    /// The merged feed, or `nil` when there are ``conflicts`` and the resolution is ``Resolution/none``.
    public let feed: Feed?
    /// Every conflict found, in file order (posts first, then keywords); with ``Resolution/ours`` or
    /// ``Resolution/theirs`` they are resolved in ``feed`` but still listed.
    public let conflicts: [FeedMergeConflict]
    /// What was taken from the remote side (its changes that are now in ``feed``).
    public let changesFromTheirs: Changes
    /// What the local side changed since the base (kept in ``feed``).
    public let changesFromOurs: Changes

    /// Counts of changes taken from one side.
    public struct Changes: Sendable, Hashable {
        /// Posts added.
        public var addedPosts = 0
        /// Posts edited.
        public var editedPosts = 0
        /// Posts deleted.
        public var deletedPosts = 0
        /// Keywords set, changed or removed, by name.
        public var keywords: [String] = []

        /// Makes counts.
        /// - Parameters:
        ///   - addedPosts: posts added.
        ///   - editedPosts: posts edited.
        ///   - deletedPosts: posts deleted.
        ///   - keywords: keywords changed, by name.
        public init(addedPosts: Int = 0, editedPosts: Int = 0, deletedPosts: Int = 0, keywords: [String] = []) {
            self.addedPosts = addedPosts
            self.editedPosts = editedPosts
            self.deletedPosts = deletedPosts
            self.keywords = keywords
        }

        /// Whether nothing changed.
        public var isEmpty: Bool { addedPosts == 0 && editedPosts == 0 && deletedPosts == 0 && keywords.isEmpty }
    }

    /// Merges `theirs` into `ours` against `base`.
    /// - Parameters:
    ///   - base: the common version (last published from here); ``Feed/empty`` when there is none.
    ///   - ours: the local version, whose bytes the result keeps.
    ///   - theirs: the remote version.
    ///   - resolution: what to do with conflicts; ``Resolution/none`` by default.
    public init(base: Feed, ours: Feed, theirs: Feed, resolving resolution: Resolution = .none) {
        var plan = PostPlan()
        var conflicts: [FeedMergeConflict] = []
        var fromTheirs = Changes()
        var fromOurs = Changes()

        let baseEntries = Self.entries(of: base)
        let ourEntries = Self.entries(of: ours)
        let theirEntries = Self.entries(of: theirs)
        let baseByKey = Dictionary(baseEntries.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
        let ourByKey = Dictionary(ourEntries.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
        let theirByKey = Dictionary(theirEntries.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
        var keys = ourEntries.map(\.key)
        keys += theirEntries.map(\.key).filter { ourByKey[$0] == nil }
        keys += baseEntries.map(\.key).filter { ourByKey[$0] == nil && theirByKey[$0] == nil }

        for key in keys {
            let b = baseByKey[key]
            let o = ourByKey[key]
            let t = theirByKey[key]
            if o?.text == t?.text { continue }
            let takesTheirs: Bool
            if b?.text == o?.text {
                takesTheirs = true
            } else if b?.text == t?.text {
                fromOurs.count(from: b, to: o)
                continue
            } else {
                let name = (o ?? t ?? b)?.name ?? key
                conflicts.append(
                    FeedMergeConflict(subject: .post(id: name), base: b?.text, ours: o?.text, theirs: t?.text))
                guard resolution == .theirs else { continue }
                takesTheirs = true
            }
            guard takesTheirs else { continue }
            fromTheirs.count(from: o, to: t)
            switch (o, t) {
            case (let o?, let t?): plan.replacements[o.index] = t.post
            case (let o?, nil): plan.deletions.insert(o.index)
            case (nil, let t?): plan.additions.append(t.post)
            case (nil, nil): break
            }
        }

        var merged = ours.applying(plan)

        // Header keywords, one name at a time.
        let baseKeywords = Self.keywordValues(of: base)
        let ourKeywords = Self.keywordValues(of: ours)
        let theirKeywords = Self.keywordValues(of: theirs)
        var names = ourKeywords.names
        names += theirKeywords.names.filter { ourKeywords.values[$0] == nil }
        names += baseKeywords.names.filter { ourKeywords.values[$0] == nil && theirKeywords.values[$0] == nil }
        for name in names {
            let b = baseKeywords.values[name] ?? []
            let o = ourKeywords.values[name] ?? []
            let t = theirKeywords.values[name] ?? []
            if o == t { continue }
            var target: [String]
            if b == o {
                target = t
            } else if b == t {
                fromOurs.keywords.append(name)
                continue
            } else if Profile.repeatableKeywords.contains(name) {
                target = o.filter { b.contains($0) ? t.contains($0) : true }
                target += t.filter { !b.contains($0) && !o.contains($0) }
                fromOurs.keywords.append(name)
                guard target != o else { continue }
            } else {
                func text(_ values: [String]) -> String? {
                    values.isEmpty ? nil : values.map { "#+\(name): \($0)" }.joined(separator: "\n")
                }
                conflicts.append(
                    FeedMergeConflict(
                        subject: .keyword(name: name), base: text(b), ours: text(o), theirs: text(t)))
                guard resolution == .theirs else { continue }
                target = t
            }
            fromTheirs.keywords.append(name)
            merged.replaceKeywordLines(name, with: target)
        }

        self.feed = conflicts.isEmpty || resolution != .none ? merged : nil
        self.conflicts = conflicts
        self.changesFromTheirs = fromTheirs
        self.changesFromOurs = fromOurs
    }

    // MARK: - Matching

    /// One post of one version, under the key it is matched by.
    struct Entry {
        /// `id:<ID>` (or `text:<text>` for a post without an ID), with `#<n>` for a repeated one.
        var key: String
        /// The post's text, line breaks as `\n`, without trailing line breaks: what is compared.
        var text: String
        /// How the post is named in a conflict.
        var name: String
        /// Its index in its feed.
        var index: Int
        /// The post.
        var post: Post
    }

    /// The posts of a feed under their keys, in file order.
    static func entries(of feed: Feed) -> [Entry] {
        var seen: [String: Int] = [:]
        return feed.posts.map { post in
            let text = comparableText(of: post)
            var key = post.id.map { "id:" + $0 } ?? "text:" + text
            let occurrence = seen[key, default: 0]
            seen[key] = occurrence + 1
            if occurrence > 0 { key += "#\(occurrence)" }
            let name =
                post.id ?? String(text.prefix { $0 != "\n" }.drop { $0 == "*" || $0 == " " })
            return Entry(key: key, text: text, name: name, index: post.index, post: post)
        }
    }

    /// A post's text as compared: line breaks as `\n`, trailing line breaks dropped.
    static func comparableText(of post: Post) -> String {
        var text = post.rawText
        while text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    /// The values of each header keyword (name in capitals), and the names in file order.
    static func keywordValues(of feed: Feed) -> (names: [String], values: [String: [String]]) {
        var names: [String] = []
        var values: [String: [String]] = [:]
        for keyword in feed.profile.keywords {
            let name = keyword.name.uppercased()
            if values[name] == nil { names.append(name) }
            values[name, default: []].append(keyword.value)
        }
        return (names, values)
    }
}

extension FeedMerge.Changes {
    /// Counts the change from one version of a post to another.
    mutating func count(from old: FeedMerge.Entry?, to new: FeedMerge.Entry?) {
        switch (old, new) {
        case (nil, .some): addedPosts += 1
        case (.some, nil): deletedPosts += 1
        case (.some, .some): editedPosts += 1
        case (nil, nil): break
        }
    }
}

/// The post changes a merge makes to the local feed.
struct PostPlan {
    /// Local post index → the remote post that replaces it.
    var replacements: [Int: Post] = [:]
    /// Local post indexes to delete.
    var deletions: Set<Int> = []
    /// Remote posts to insert.
    var additions: [Post] = []
}
