import Foundation

/// The byte edits of a merge: posts replaced, deleted and inserted, and keyword lines rewritten, each
/// touching only its own bytes.
extension Feed {
    /// This feed with a merge's post changes applied at once (indexes are this feed's).
    func applying(_ plan: PostPlan) -> Feed {
        guard !plan.replacements.isEmpty || !plan.deletions.isEmpty || !plan.additions.isEmpty else { return self }
        let all = Array(posts)
        var insertions: [ByteEdit] = []
        var rewrites: [ByteEdit] = []

        for (index, post) in plan.replacements.sorted(by: { $0.key < $1.key }) {
            let layout = all[index].layout
            var replacement = Self.postText(post)
            let endsWithBreak = layout.contentEnd > layout.start && Self.isLineBreak(bytes[layout.contentEnd - 1])
            if !endsWithBreak { replacement.removeLast() }
            rewrites.append(ByteEdit(range: layout.start..<layout.contentEnd, replacement: encoded(replacement)))
        }
        rewrites += deletionEdits(plan.deletions, posts: all)

        let kept = all.filter { !plan.deletions.contains($0.index) }
        let additions = plan.additions.sortedByDate(newestFirst: false)
        if additions.isEmpty {
            // Nothing to insert.
        } else if kept.isEmpty {
            insertions.append(insertionIntoEmptySection(additions.map(Self.postText), posts: all))
        } else {
            insertions += placedInsertions(additions, among: kept)
        }
        return applying(insertions + rewrites)
    }

    /// A post's text with `\n` line breaks, ending with one.
    private static func postText(_ post: Post) -> String {
        var text = post.rawText
        while text.hasSuffix("\n") { text.removeLast() }
        return text + "\n"
    }

    private static func isLineBreak(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
    }

    /// Removals for deleted posts: each run of neighbouring deleted posts goes with the blank line that
    /// separated it from the post before (as ``deletePost(id:)`` does one at a time).
    private func deletionEdits(_ deletions: Set<Int>, posts all: [Post]) -> [ByteEdit] {
        var edits: [ByteEdit] = []
        var index = 0
        while index < all.count {
            guard deletions.contains(index) else {
                index += 1
                continue
            }
            var last = index
            while last + 1 < all.count, deletions.contains(last + 1),
                all[last].layout.end == all[last + 1].layout.start
            {
                last += 1
            }
            if index > 0, all[index - 1].layout.end == all[index].layout.start {
                edits.append(removal(all[index - 1].layout.contentEnd..<all[last].layout.contentEnd))
            } else {
                edits.append(removal(all[index].layout.start..<all[last].layout.end))
            }
            index = last + 1
        }
        return edits
    }

    /// Insertions that put each added post among the kept ones by date: after the last kept post that
    /// is not newer (older, for a file written newest first), else before the first kept post.
    private func placedInsertions(_ additions: [Post], among kept: [Post]) -> [ByteEdit] {
        let instants = kept.map { $0.timestamp?.sortInstant }
        var rising = 0
        var falling = 0
        for (a, b) in zip(instants, instants.dropFirst()) {
            guard let a, let b else { continue }
            if a < b { rising += 1 } else if a > b { falling += 1 }
        }
        let newestFirst = falling > rising
        var after: [Int: [String]] = [:]
        var before: [String] = []
        for post in additions {
            let text = Self.postText(post)
            guard let instant = post.timestamp?.sortInstant else {
                // Without a readable date it goes after the last kept post.
                after[kept.count - 1, default: []].append(text)
                continue
            }
            let anchor = kept.indices.last { position in
                guard let other = instants[position] else { return false }
                return newestFirst ? other >= instant : other <= instant
            }
            // Additions come oldest first: in a file written newest first, each goes in front of the earlier ones.
            if let anchor {
                if newestFirst {
                    after[anchor, default: []].insert(text, at: 0)
                } else {
                    after[anchor, default: []].append(text)
                }
            } else if newestFirst {
                before.insert(text, at: 0)
            } else {
                before.append(text)
            }
        }
        var edits: [ByteEdit] = []
        if !before.isEmpty, let first = kept.first {
            edits.append(insertion(at: first.layout.start, before.map { $0 + "\n" }.joined()))
        }
        for (position, texts) in after.sorted(by: { $0.key < $1.key }) {
            edits.append(insertion(at: kept[position].layout.contentEnd, texts.map { "\n" + $0 }.joined()))
        }
        return edits
    }

    /// The insertion of posts into a feed none of whose posts is kept: where the first post was, else
    /// under the last `* Posts` heading, else after a new `* Posts` heading at the end.
    private func insertionIntoEmptySection(_ texts: [String], posts all: [Post]) -> ByteEdit {
        let joined = texts.joined(separator: "\n")
        if let first = all.first {
            let followed = all.last.map { $0.layout.end < bytes.count } ?? false
            return insertion(at: first.layout.start, joined + (followed ? "\n" : ""))
        }
        if let heading = layout.postsHeadings.last {
            if heading.contentEnd > heading.end { return insertion(at: heading.contentEnd, "\n" + joined) }
            return insertion(at: heading.end, joined)
        }
        var prefix = ""
        if bytes.count > layout.contentStart {
            prefix = layout.endsWithLineBreak && endsWithBlankLine() ? "" : "\n"
        }
        return insertion(at: bytes.count, prefix + "* Posts\n" + joined)
    }

    /// Rewrites the lines of one header keyword so that its values are `target`, in place where a line
    /// stays: changed values are replaced on their lines, extra lines removed, missing ones added after
    /// the keyword's last line (or where ``setKeyword(_:to:)`` would put a new one).
    mutating func replaceKeywordLines(_ name: String, with target: [String]) {
        let keywords = profile.keywords
        let locations = profile.locations
        let lines = keywords.indices.filter { keywords[$0].hasName(name) }
        var unmatchedTarget = target
        var unmatchedLines: [Int] = []
        for line in lines {
            if let position = unmatchedTarget.firstIndex(of: keywords[line].value) {
                unmatchedTarget.remove(at: position)
            } else {
                unmatchedLines.append(line)
            }
        }
        var edits: [ByteEdit] = []
        for (line, value) in zip(unmatchedLines, unmatchedTarget) {
            let location = locations[line]
            edits.append(ByteEdit(range: location.afterKey..<location.contentEnd, replacement: encoded(" " + value)))
        }
        for line in unmatchedLines.dropFirst(unmatchedTarget.count) {
            edits.append(removal(locations[line].lineStart..<locations[line].lineEnd))
        }
        let added = unmatchedTarget.dropFirst(unmatchedLines.count)
        if !added.isEmpty {
            let place = keywordInsertion(name, added.first ?? "").range.lowerBound
            edits.insert(insertion(at: place, added.map { "#+\(name): \($0)\n" }.joined()), at: 0)
        }
        self = applying(edits)
    }
}

extension Feed {
    /// Whether this feed and `other` hold the same bytes but for the order of their posts: the same bytes
    /// before the first post, and the same posts, each byte for byte (but for the line breaks that end
    /// it), in any order.
    ///
    /// Two copies of a feed that list posts in different orders read the same; a sync takes the published
    /// order then, rather than uploading its own (two copies doing that in turn would never settle).
    /// - Parameter other: the other feed.
    /// - Returns: whether only the posts' order differs (also `true` for identical bytes).
    public func hasSameContentIgnoringPostOrder(as other: Feed) -> Bool {
        guard posts.count == other.posts.count else { return false }
        func parts(_ feed: Feed) -> (head: ArraySlice<UInt8>, posts: [ArraySlice<UInt8>]) {
            let bytes = feed.bytes
            let start = feed.posts.first?.layout.start ?? bytes.count
            let posts = feed.posts.map { post -> ArraySlice<UInt8> in
                var end = post.layout.contentEnd
                while end > post.layout.start,
                    bytes[end - 1] == UInt8(ascii: "\n") || bytes[end - 1] == UInt8(ascii: "\r")
                {
                    end -= 1
                }
                return bytes[post.layout.start..<end]
            }
            return (bytes[0..<start], posts.sorted { $0.lexicographicallyPrecedes($1) })
        }
        let mine = parts(self)
        let theirs = parts(other)
        return mine.head == theirs.head && mine.posts == theirs.posts
    }
}

extension Feed {
    /// This feed without its posts whose IDs are not in `ids` (posts without an ID stay).
    /// - Parameter ids: the IDs of the posts to keep.
    /// - Returns: the feed, with only those posts' bytes removed.
    /// - Throws: ``OrgSocialError/duplicatePostID(id:lines:)`` when a post to remove shares its ID.
    public func removingPosts(notIn ids: Set<String>) throws -> Feed {
        var feed = self
        for id in posts.compactMap(\.id) where !ids.contains(id) {
            try feed.deletePost(id: id)
        }
        return feed
    }
}
