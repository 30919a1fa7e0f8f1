// libFuzzer harness for the OrgSocial parser, serializer and editor.
//
// Built by `scripts/fuzz-parser`, which compiles this file together with every file of
// `Sources/OrgSocial` into one module named `OrgSocial` (so no package build is involved):
//
//     swiftc -sanitize=fuzzer,address -parse-as-library -O Fuzz/FuzzParser.swift Sources/OrgSocial/**/*.swift
//
// For every input it checks, and traps with `fatalError` when one does not hold:
// - parsing never crashes and `serialized()` gives back exactly the input bytes;
// - parsing the serialized bytes again gives the same posts (IDs, bodies), profile and diagnostics;
// - every derived view of the feed, its profile and its posts can be read, the feed can be encoded as
//   JSON, and `FeedValidator` runs;
// - `append(_:at:timeZone:)` only inserts bytes (everything before the insertion point, and every old
//   post, is unchanged) and the new post reads back with its ID and body;
// - `updatePost(id:_:)` on the first post with an ID changes its body and nothing else's;
// - `deletePost(id:)` on the last post with an ID removes exactly that post;
// - each edited feed round-trips like a parsed one.
//
// Only the public API of OrgSocial is used, as a client of the library would use it.

import Foundation

/// The fixed moment appended posts are stamped with, so runs are reproducible (2026-01-01T00:00:00Z).
private let appendDate = Date(timeIntervalSince1970: 1_767_225_600)
/// The zone appended posts are stamped in; a non-zero offset exercises the `+hhmm` formatting.
private let appendZone = TimeZone(secondsFromGMT: 3600) ?? .gmt
/// The body given to the first post by `updatePost`.
private let editedBody = "fuzz edited\nsecond line"
/// The feed URL used to build post URLs and references.
private let feedURL = "https://fuzz.example/social.org"

/// libFuzzer's entry point: one input, one pass of every check.
/// - Parameters:
///   - data: the input bytes.
///   - size: how many bytes there are.
/// - Returns: always 0 (the input is worth keeping if it found new coverage).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    FuzzChecks(input: input).run()
    return 0
}

// MARK: - Checks

/// Everything checked for one input.
private struct FuzzChecks {
    let input: [UInt8]

    func run() {
        let feed = OrgSocialParser().parse(bytes: input)
        require(feed.serialized() == input, "serialized() differs from the parsed bytes")
        require(feed.bytes == input, "bytes differ from the parsed bytes")
        checkReparse(feed, "parsed feed")
        touchEverything(feed)
        checkAppend(feed)
        checkUpdate(feed)
        checkDelete(feed)
    }

    // MARK: Round trip

    /// Parses `feed.serialized()` again and compares everything the model exposes.
    func checkReparse(_ feed: Feed, _ what: String) {
        let bytes = feed.serialized()
        let again = OrgSocialParser().parse(bytes: bytes)
        require(again.serialized() == bytes, "\(what): serialized() of the re-parsed feed differs")
        require(again.posts.count == feed.posts.count, "\(what): post count changed on re-parse")
        require(again.posts.map(\.id) == feed.posts.map(\.id), "\(what): post IDs changed on re-parse")
        require(again.posts.map(\.body) == feed.posts.map(\.body), "\(what): post bodies changed on re-parse")
        require(again.posts == feed.posts, "\(what): posts changed on re-parse")
        require(again.profile == feed.profile, "\(what): profile changed on re-parse")
        require(again.diagnostics == feed.diagnostics, "\(what): diagnostics changed on re-parse")
        require(again.otherSections == feed.otherSections, "\(what): other sections changed on re-parse")
        require(again.lineEnding == feed.lineEnding, "\(what): line ending changed on re-parse")
        require(again.hasPostsSection == feed.hasPostsSection, "\(what): posts section changed on re-parse")
        require(again.hasByteOrderMark == feed.hasByteOrderMark, "\(what): BOM flag changed on re-parse")
        require(Feed(bytes: bytes) == feed, "\(what): Feed(bytes:) differs from the parser's feed")
    }

    // MARK: Derived views

    /// Reads every derived view so that any trap inside them shows up.
    func touchEverything(_ feed: Feed) {
        var sink = Sink()
        sink.add(feed.text)
        sink.add(feed.data.count)
        sink.add(feed.hasErrors)
        sink.add(feed.lineEnding.bytes.count)
        sink.add(feed.hasPostsSection)
        sink.add(feed.hasByteOrderMark)
        for section in feed.otherSections { sink.add(section.title, section.line) }
        for diagnostic in feed.diagnostics { sink.add(diagnostic.description) }

        let profile = feed.profile
        for keyword in profile.keywords { sink.add(keyword.name, keyword.value, keyword.line, keyword.valueColumn) }
        sink.add(profile.title, profile.nick, profile.description, profile.avatar)
        sink.add(profile.location, profile.birthday, profile.pinned)
        sink.add(profile.links.count, profile.languages.count, profile.contacts.count)
        for follow in profile.follows { sink.add(follow.url, follow.label) }
        for group in profile.groups { sink.add(group.name, group.relayURL, group.slug, group.value) }
        for name in Profile.knownKeywords {
            sink.add(profile.value(of: name))
            sink.add(profile.values(of: name).count)
        }
        if let pinned = profile.pinned { sink.add(OrgTimestamp(pinned).sortInstant) }

        for post in feed.posts { touch(post, &sink) }
        if let first = feed.posts.first, let id = first.id {
            require(feed.post(withID: id) != nil, "post(withID:) misses an existing ID")
        }
        let newest = feed.postsSortedByDate(newestFirst: true)
        let oldest = feed.postsSortedByDate(newestFirst: false)
        require(newest.count == feed.posts.count && oldest.count == feed.posts.count, "sorting lost posts")

        let validated = FeedValidator().validate(feed)
        require(validated.count >= feed.diagnostics.count, "the validator dropped parser diagnostics")
        for diagnostic in validated { sink.add(diagnostic.description, diagnostic.suggestion) }

        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            sink.add(try encoder.encode(feed).count)
        } catch {
            fatalError("encoding the feed as JSON failed: \(error)")
        }
        sink.finish()
    }

    func touch(_ post: Post, _ sink: inout Sink) {
        sink.add(post.id, post.headlineText, post.line, post.index)
        if let stamp = post.timestamp {
            sink.add(stamp.raw, stamp.isValid, stamp.instant, stamp.lenientInstant, stamp.sortInstant)
            sink.add(stamp.utcOffsetSeconds)
        }
        for property in post.properties { sink.add(property.name, property.value, property.line) }
        sink.add(post.body)
        sink.add(post.rawBytes.count)
        sink.add(post.rawText)
        sink.add(post.instant)
        sink.add(post.language, post.client, post.mood, post.pollOption)
        sink.add(post.tags.count)
        if let reference = post.replyTo { sink.add(reference.description, reference.timestamp.sortInstant) }
        if let reference = post.include { sink.add(reference.description, reference.timestamp.sortInstant) }
        if let end = post.pollEnd { sink.add(end.raw, end.sortInstant) }
        if let group = post.group { sink.add(group.name, group.relayURL, group.slug) }
        sink.add(post.visibility.rawValue, post.visibility.isMentionOnly)
        if let migration = post.migration { sink.add(migration.oldURL, migration.newURL) }
        if let bot = post.bot { sink.add(bot.type, bot.parameters.count) }
        sink.add(post.hasEmptyBody)
        sink.add(post.kind.rawValue)
        for mention in post.mentions { sink.add(mention.feedURL, mention.name) }
        sink.add(post.pollOptions.count)
        sink.add(post.url(in: feedURL))
        sink.add(post.reference(in: feedURL)?.description)
        for name in PostDraft.canonicalOrder { sink.add(post.value(of: name)) }
        let draft = PostDraft(post)
        sink.add(draft.escapedBody)
        sink.add(draft.orderedProperties.count)
        sink.add(draft.render(id: post.id ?? "2026-01-01T00:00:00+0000"))
    }

    // MARK: Editing

    /// `append` inserts one run of bytes after the last post and the new post reads back.
    func checkAppend(_ original: Feed) {
        let draft: PostDraft
        do {
            draft = try PostDraft.post("fuzz")
        } catch {
            fatalError("PostDraft.post(\"fuzz\") threw: \(error)")
        }
        let expectedID = original.uniqueID(for: appendDate, timeZone: appendZone)
        require(original.post(withID: expectedID) == nil, "uniqueID returned an ID in use")
        var feed = original
        let appended = feed.append(draft, at: appendDate, timeZone: appendZone)
        let before = original.serialized()
        let after = feed.serialized()

        // The new bytes are the old ones with a single insertion...
        require(after.count > before.count, "append did not add bytes")
        let prefix = commonPrefixLength(before, after)
        let suffix = commonSuffixLength(before, after, limit: before.count - prefix)
        require(prefix + suffix == before.count, "append changed bytes outside the insertion")
        // ... which is not before the end of the last existing post.
        if let last = original.posts.last {
            require(prefix >= last.rawBytes.endIndex, "append inserted inside an existing post")
        }

        require(appended.id == expectedID, "the appended post has the wrong ID")
        require(appended.body == "fuzz", "the appended post has the wrong body")
        require(feed.posts.count == original.posts.count + 1, "append did not add exactly one post")
        guard let found = feed.post(withID: expectedID) else { fatalError("the appended post is not found by ID") }
        require(found.body == "fuzz", "the appended post reads back with the wrong body")
        require(found.kind == .post, "the appended post is not a plain post")
        for (old, new) in zip(original.posts, feed.posts) {
            require(old.id == new.id && old.body == new.body, "append changed an existing post")
        }
        checkReparse(feed, "after append")
    }

    /// `updatePost` on the first post with an ID gives it the new body and leaves the others alone (or is
    /// refused, when another post shares the ID or its drawer has no `:END:`).
    func checkUpdate(_ original: Feed) {
        guard let index = original.posts.firstIndex(where: { $0.id != nil }), let id = original.posts[index].id
        else { return }
        var feed = original
        do {
            try feed.updatePost(id: id) { $0.body = editedBody }
        } catch OrgSocialError.duplicatePostID(id, _) {
            // Refused on purpose: an edit would not know which post is meant.
            require(original.posts.filter { $0.id == id }.count > 1, "duplicatePostID for a unique ID")
            return
        } catch OrgSocialError.unclosedDrawer(id, _) {
            // Refused on purpose: the post's properties cannot be told from its text.
            require(original.posts[index].layout.drawer?.isClosed == false, "unclosedDrawer for a closed drawer")
            return
        } catch {
            fatalError("updatePost threw for an existing ID: \(error)")
        }
        require(feed.posts.count == original.posts.count, "updatePost changed the post count")
        require(feed.posts.map(\.id) == original.posts.map(\.id), "updatePost changed the post IDs")
        require(feed.posts[index].body == editedBody, "updatePost did not set the body")
        for (offset, (old, new)) in zip(original.posts, feed.posts).enumerated() where offset != index {
            require(old.body == new.body, "updatePost changed another post's body")
        }
        checkReparse(feed, "after updatePost")
    }

    /// `deletePost` on the last post with an ID removes that post and only it (or is refused, when another
    /// post shares the ID).
    func checkDelete(_ original: Feed) {
        guard let id = original.posts.last(where: { $0.id != nil })?.id,
            let index = original.posts.firstIndex(where: { $0.id == id })
        else { return }
        var feed = original
        do {
            try feed.deletePost(id: id)
        } catch OrgSocialError.duplicatePostID(id, _) {
            // Refused on purpose: a deletion would not know which post is meant.
            require(original.posts.filter { $0.id == id }.count > 1, "duplicatePostID for a unique ID")
            return
        } catch {
            fatalError("deletePost threw for an existing ID: \(error)")
        }
        var expected = Array(original.posts)
        expected.remove(at: index)
        require(feed.posts.count == expected.count, "deletePost did not remove exactly one post")
        require(feed.posts.map(\.id) == expected.map(\.id), "deletePost removed the wrong post")
        require(feed.posts.map(\.body) == expected.map(\.body), "deletePost changed another post's body")
        require(feed.serialized().count < original.serialized().count, "deletePost removed no bytes")
        checkReparse(feed, "after deletePost")
    }
}

// MARK: - Helpers

/// Traps with `message` (libFuzzer then saves the input as a crash) when `condition` is false.
private func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("fuzz invariant failed: \(message())") }
}

private func commonPrefixLength(_ a: [UInt8], _ b: [UInt8]) -> Int {
    var n = 0
    let limit = min(a.count, b.count)
    while n < limit, a[n] == b[n] { n += 1 }
    return n
}

private func commonSuffixLength(_ a: [UInt8], _ b: [UInt8], limit: Int) -> Int {
    var n = 0
    let bound = min(limit, a.count, b.count)
    while n < bound, a[a.count - 1 - n] == b[b.count - 1 - n] { n += 1 }
    return n
}

/// Folds what the harness reads into one number, so the optimizer cannot drop the reads.
private struct Sink {
    private var hasher = Hasher()

    mutating func add<each Value: Hashable>(_ values: repeat each Value) {
        repeat hasher.combine(each values)
    }

    func finish() {
        // A hash value is never exactly this; the comparison keeps the work alive.
        if hasher.finalize() == 0x5EED_F00D { print("") }
    }
}
