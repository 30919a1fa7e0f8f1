import Foundation

/// A three-way merge of two versions of a feed that both started from a common one: the local file
/// (*ours*), the remote feed (*theirs*) and the version this file last agreed on with the remote feed
/// (the *base*: what it last published or synced).
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
/// wording and converted to the local file's line breaks. Without a base (this file never agreed with
/// the remote feed) everything on either side is an addition, so nothing is ever deleted.
///
/// Two posts added on both sides under the same ID with other text (two copies of a file that posted in
/// the same second) are both kept: the local one moves to the next free second and is listed in
/// ``renamedPosts``. Without a base that case stays a conflict, since one side may have edited the other's
/// post.
///
/// A conflict that was shown before (``ShownConflicts``) and that the user answered by editing the local
/// version, while the remote version stayed as shown, is settled with the local version.
///
/// ```swift
/// let merge = FeedMerge(base: lastAgreed, ours: local, theirs: remote)
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
    /// Local posts that were given a new ID because the remote side added another post under theirs.
    public let renamedPosts: [RenamedPost]

    /// A local post moved to a free ID by the merge.
    public struct RenamedPost: Sendable, Hashable {
        /// The ID both sides used.
        public let oldID: String
        /// The local post's new ID.
        public let newID: String

        /// Names a rename.
        /// - Parameters:
        ///   - oldID: the ID both sides used.
        ///   - newID: the local post's new ID.
        public init(oldID: String, newID: String) {
            self.oldID = oldID
            self.newID = newID
        }
    }

    /// The local and remote versions of a feed as an earlier merge showed their conflicts: an item still
    /// in conflict whose remote version is the one shown, and whose local version was edited since, was
    /// answered by that edit and takes the local version.
    public struct ShownConflicts: Sendable {
        /// The local version shown.
        public let ours: Feed
        /// The remote version shown.
        public let theirs: Feed

        /// Makes the record of a conflict report.
        /// - Parameters:
        ///   - ours: the local version shown.
        ///   - theirs: the remote version shown.
        public init(ours: Feed, theirs: Feed) {
            self.ours = ours
            self.theirs = theirs
        }
    }

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
    ///   - base: the common version (the one this file last agreed on with the remote feed); `nil` when
    ///     there is none.
    ///   - ours: the local version, whose bytes the result keeps.
    ///   - theirs: the remote version.
    ///   - shown: the versions an earlier merge of the same file showed conflicts for, if any.
    ///   - resolution: what to do with conflicts; ``Resolution/none`` by default.
    public init(
        base: Feed?, ours: Feed, theirs: Feed, shown: ShownConflicts? = nil,
        resolving resolution: Resolution = .none
    ) {
        var plan = PostPlan()
        var conflicts: [FeedMergeConflict] = []
        var fromTheirs = Changes()
        var fromOurs = Changes()
        var renamed: [RenamedPost] = []
        var ours = ours
        if let base {
            ours = Self.renamingSameIDAdditions(base: base, ours: ours, theirs: theirs, &renamed)
        }
        let base = base ?? .empty
        let shownOurs = shown.map { Self.byKey(Self.entries(of: $0.ours)) } ?? [:]
        let shownTheirs = shown.map { Self.byKey(Self.entries(of: $0.theirs)) } ?? [:]

        let baseEntries = Self.entries(of: base)
        let ourEntries = Self.entries(of: ours)
        let theirEntries = Self.entries(of: theirs)
        let baseByKey = Self.byKey(baseEntries)
        let ourByKey = Self.byKey(ourEntries)
        let theirByKey = Self.byKey(theirEntries)
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
            } else if b?.text == t?.text
                || (shown != nil && shownTheirs[key]?.text == t?.text && shownOurs[key]?.text != o?.text)
            {
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
        let shownOurKeywords = shown.map { Self.keywordValues(of: $0.ours).values } ?? [:]
        let shownTheirKeywords = shown.map { Self.keywordValues(of: $0.theirs).values } ?? [:]
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
            } else if b == t
                || (shown != nil && (shownTheirKeywords[name] ?? []) == t && (shownOurKeywords[name] ?? []) != o)
            {
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
        self.renamedPosts = renamed
    }

    /// `ours` with each post that the base lacks and that `theirs` holds under the same ID with other
    /// text moved to the next ID free on all three sides; the renames are appended to `renamed`.
    private static func renamingSameIDAdditions(
        base: Feed, ours: Feed, theirs: Feed, _ renamed: inout [RenamedPost]
    ) -> Feed {
        let baseIDs = Set(base.posts.compactMap(\.id))
        var theirTexts: [String: String] = [:]
        for post in theirs.posts {
            if let id = post.id, theirTexts[id] == nil { theirTexts[id] = comparableText(of: post) }
        }
        var taken = baseIDs.union(theirTexts.keys).union(ours.posts.compactMap(\.id))
        var renames: [Int: String] = [:]
        for post in ours.posts {
            guard let id = post.id, !baseIDs.contains(id), let theirText = theirTexts[id],
                theirText != comparableText(of: post), let newID = Feed.nextFreeID(after: id, avoiding: taken)
            else { continue }
            taken.insert(newID)
            renames[post.index] = newID
            renamed.append(RenamedPost(oldID: id, newID: newID))
            theirTexts[id] = nil
        }
        return ours.renamingPosts(renames)
    }

    /// Entries by key (the first of each key).
    static func byKey(_ entries: [Entry]) -> [String: Entry] {
        Dictionary(entries.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
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

extension FeedMerge.Changes {
    /// What turns `old` into `new`: posts added, edited and deleted (matched as a merge matches them),
    /// and header keywords whose values differ.
    /// - Parameters:
    ///   - old: the version before, such as the remote feed before an upload.
    ///   - new: the version after.
    public init(from old: Feed, to new: Feed) {
        self.init()
        let oldEntries = FeedMerge.byKey(FeedMerge.entries(of: old))
        let newEntries = FeedMerge.entries(of: new)
        let newKeys = Set(newEntries.map(\.key))
        for entry in newEntries {
            guard let before = oldEntries[entry.key] else {
                addedPosts += 1
                continue
            }
            if before.text != entry.text { editedPosts += 1 }
        }
        deletedPosts = oldEntries.keys.filter { !newKeys.contains($0) }.count
        let oldKeywords = FeedMerge.keywordValues(of: old)
        let newKeywords = FeedMerge.keywordValues(of: new)
        var names = newKeywords.names
        names += oldKeywords.names.filter { newKeywords.values[$0] == nil }
        keywords = names.filter { oldKeywords.values[$0] != newKeywords.values[$0] }
    }
}
