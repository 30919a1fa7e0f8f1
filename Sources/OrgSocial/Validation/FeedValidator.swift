import Foundation

/// Checks a feed against the rules of the Org Social format (spec §9) and those of the reference
/// validator (org-social.el), on top of what the parser already reported.
///
/// Every diagnostic has a stable code (see ``DiagnosticCode``); docs/reference.md lists them. Errors are rule
/// violations other clients trip on; warnings are readable but unusual content.
///
/// ```swift
/// let feed = OrgSocialParser().parse(text)
/// for diagnostic in FeedValidator().validate(feed) { print(diagnostic) }
/// ```
public struct FeedValidator: Sendable {
    /// Makes a validator.
    public init() {}

    /// All diagnostics for `feed`: the parser's plus the validator's, ordered by line and column.
    ///
    /// Only the first ``Diagnostic/listedPerCode`` diagnostics of each code are listed; the rest are
    /// summarized in one diagnostic of that code whose ``Diagnostic/omittedCount`` says how many were left
    /// out (sum ``Diagnostic/problemCount`` for the real totals).
    /// - Parameter feed: a parsed feed.
    /// - Returns: the diagnostics; empty for a clean feed.
    public func validate(_ feed: Feed) -> [Diagnostic] {
        validate(feed, visiting: { _ in })
    }

    /// All diagnostics for `feed` (see ``validate(_:)``), telling `visit` the kind of each post as it is
    /// read, so a caller that counts posts by kind as well reads them once.
    ///
    /// - Parameters:
    ///   - feed: a parsed feed.
    ///   - visit: called once per post, in file order, with its kind (``PostKind/post`` for a bare post:
    ///     a headline alone, which is not read).
    /// - Returns: the diagnostics; empty for a clean feed.
    public func validate(_ feed: Feed, visiting visit: (PostKind) -> Void) -> [Diagnostic] {
        validate(feed, threads: ProcessInfo.processInfo.activeProcessorCount, runBytes: Self.runBytes, visiting: visit)
    }

    /// ``validate(_:visiting:)`` reading the posts in at most `threads` runs of at least `runBytes` bytes
    /// each, concurrently: the result does not depend on either.
    package func validate(
        _ feed: Feed, threads: Int, runBytes: Int, visiting visit: (PostKind) -> Void
    ) -> [Diagnostic] {
        validate(feed, postsAt: nil, threads: threads, runBytes: runBytes, visiting: visit)
    }

    /// The diagnostics of `feed` with the posts at `positions` alone read: the parser's, the header's and
    /// `#+PINNED`'s, and those of those posts. An edit that changed only those posts (and the header)
    /// adds exactly what this finds in the edited feed and not in the original
    /// (``Feed/applyChecked(_:)``), without reading the thousands of posts it left alone.
    /// - Parameters:
    ///   - feed: a parsed feed.
    ///   - positions: the posts to read.
    /// - Returns: the diagnostics.
    package func validate(_ feed: Feed, postsAt positions: Range<Int>) -> [Diagnostic] {
        validate(feed, postsAt: positions, threads: 1, runBytes: Self.runBytes, visiting: { _ in })
    }

    private func validate(
        _ feed: Feed, postsAt window: Range<Int>?, threads: Int, runBytes: Int, visiting visit: (PostKind) -> Void
    ) -> [Diagnostic] {
        var found = DiagnosticList(feed.diagnostics)
        checkHeader(feed, into: &found)
        if let pinned = feed.profile.keywords.first(where: { !$0.value.isEmpty && $0.hasName("PINNED") }) {
            if !OrgTimestamp(pinned.value).isValid {
                found.append(
                    diagnostic(
                        pinned, .invalidPinned, "`#+PINNED:` `\(pinned.value)` is not a post ID.",
                        "Write the ID of one of your posts, e.g. `2025-05-01T12:00:00+0100`."))
            } else if feed.post(withID: pinned.value) == nil {
                found.append(
                    diagnostic(
                        pinned, .pinnedPostMissing,
                        "`#+PINNED:` names `\(pinned.value)`, but no post here has that ID.",
                        "Pin one of your own posts (IDs are compared exactly as written)."))
            }
        }
        // A big feed is read in runs of posts, one per core; the runs' findings are added in file order.
        let runs = window.map { $0.isEmpty ? [] : [$0] } ?? feed.posts.runs(count: threads, minimumBytes: runBytes)
        if runs.count > 1 {
            let results = concurrentMap(runs) { [self, posts = feed.posts] positions in
                var kinds: [PostKind] = []
                var list = DiagnosticList()
                checkPosts(posts, at: positions, into: &list) { kinds.append($0) }
                return (list, kinds)
            }
            for (list, kinds) in results {
                found.append(contentsOf: list)
                kinds.forEach(visit)
            }
        } else if let positions = runs.first {
            checkPosts(feed.posts, at: positions, into: &found, visiting: visit)
        }
        return found.diagnostics.sorted {
            ($0.line, $0.column, $0.code.rawValue) < ($1.line, $1.column, $1.code.rawValue)
        }
    }

    // MARK: - Header

    private func checkHeader(_ feed: Feed, into found: inout DiagnosticList) {
        let profile = feed.profile
        let firstLine = 1
        if profile.title == nil {
            found.append(
                Diagnostic(
                    .missingTitle, line: line(of: "TITLE", in: profile) ?? firstLine,
                    message: "The feed has no `#+TITLE:` (it is required).",
                    suggestion: "Add a line `#+TITLE: Your feed's title` at the top."))
        }
        if let nick = profile.keywords.first(where: { !$0.value.isEmpty && $0.hasName("NICK") }) {
            if nick.value.contains(where: { $0 == " " || $0 == "\t" }) {
                found.append(
                    diagnostic(
                        nick, .nickHasSpaces, "`#+NICK:` `\(nick.value)` contains spaces; a nick is one word.",
                        "Use e.g. `\(nick.value.tokens().joined(separator: "_"))`."))
            }
        } else {
            found.append(
                Diagnostic(
                    .missingNick, line: line(of: "NICK", in: profile) ?? firstLine,
                    message: "The feed has no `#+NICK:` (it is required).",
                    suggestion: "Add a line `#+NICK: yourname` (no spaces)."))
        }
        for keyword in profile.keywords where !keyword.value.isEmpty {
            let value = keyword.value
            switch keyword.name.uppercased() {
            case "AVATAR":
                if !value.isHTTPURL {
                    found.append(
                        diagnostic(
                            keyword, .invalidAvatar, "`#+AVATAR:` `\(value)` is not an http(s) URL.",
                            "Give the full URL of a square JPG or PNG image."))
                } else if !hasImageExtension(value) {
                    found.append(
                        diagnostic(
                            keyword, .avatarFormat, "`#+AVATAR:` does not end in .jpg, .jpeg or .png.",
                            "The spec asks for a JPG or PNG of at least 128×128 px; some clients check the extension."))
                }
            case "LINK":
                if !hasURIScheme(value) || value.contains(" ") {
                    found.append(
                        diagnostic(
                            keyword, .invalidLink, "`#+LINK:` `\(value)` is not a URL.",
                            "Write a full URL such as `https://example.org`."))
                }
            case "FOLLOW":
                if let follow = Follow(value: value), !follow.url.isHTTPURL {
                    found.append(
                        diagnostic(
                            keyword, .invalidFollow, "`#+FOLLOW:` URL `\(follow.url)` is not an http(s) URL.",
                            "Write `#+FOLLOW: [label] https://…/social.org` with the URL last."))
                }
            case "GROUP":
                if let group = GroupReference(parsing: value), group.relayURL.isHTTPURL {
                    break
                }
                found.append(
                    diagnostic(
                        keyword, .invalidGroup, "`#+GROUP:` `\(value)` is not `<group name> <relay URL>`.",
                        "Write e.g. `#+GROUP: Emacs https://relay.org-social.org`."))
            case "CONTACT":
                if !hasURIScheme(value) {
                    found.append(
                        diagnostic(
                            keyword, .invalidContact, "`#+CONTACT:` `\(value)` has no URI scheme.",
                            value.contains("@") && !value.hasPrefix("@")
                                ? "Write `mailto:\(value)`."
                                : "Write a URI such as `mailto:…`, `xmpp:…` or `https://…`."))
                }
            case "BIRTHDAY":
                if !isISODate(value) {
                    found.append(
                        diagnostic(
                            keyword, .invalidBirthday, "`#+BIRTHDAY:` `\(value)` is not `YYYY-MM-DD`.",
                            "Write the date with two-digit month and day, e.g. `2020-05-14`."))
                }
            case "LANGUAGE":
                let bad = value.tokens().filter { !isLanguageCode($0) }
                if !bad.isEmpty {
                    found.append(
                        diagnostic(
                            keyword, .invalidLanguage,
                            "`#+LANGUAGE:` holds `\(bad.joined(separator: " "))`, not ISO 639-1 codes.",
                            "List codes separated by spaces, e.g. `en es`."))
                }
            default:
                break
            }
        }
        var followed: Set<String> = []
        for keyword in profile.keywords where !keyword.value.isEmpty && keyword.hasName("FOLLOW") {
            guard let follow = Follow(value: keyword.value) else { continue }
            if !followed.insert(follow.url).inserted {
                found.append(
                    diagnostic(
                        keyword, .duplicateFollow, "`\(follow.url)` is followed twice.",
                        "Remove the repeated `#+FOLLOW:` line."))
            }
        }
    }

    // MARK: - Posts

    /// The fewest bytes of posts worth a thread of their own (about 15 ms of reading).
    static let runBytes = 1 << 20

    /// Checks the posts at `positions`, telling `visit` the kind of each.
    private func checkPosts(
        _ posts: PostList, at positions: Range<Int>, into found: inout DiagnosticList,
        visiting visit: (PostKind) -> Void
    ) {
        // A bare post (a headline alone) is an empty post and nothing else: it is not read.
        var iterator = posts.makeIterator(over: positions)
        while let post = iterator.next(skippingBare: {
            visit(.post)
            if found.admits(.emptyPost) { found.append(Self.emptyPost(line: $0)) }
        }) {
            let kind = post.kind
            visit(kind)
            checkPost(post, kind: kind, into: &found)
        }
    }

    private func checkPost(_ post: Post, kind: PostKind, into found: inout DiagnosticList) {
        // The names are matched on the file's bytes: only entries that are checked become `Property` values.
        for index in post.entryRange {
            guard let known = post.knownProperty(ofEntry: index) else { continue }
            switch known {
            case .pollOption, .client, .mood, .bot: continue
            default: break
            }
            let property = post.property(from: post.entrySpan(index))
            let value = property.value
            switch known {
            case .replyTo, .include:
                let isReply = known == .replyTo
                if !isValidReference(value) {
                    found.append(
                        diagnostic(
                            property, isReply ? .invalidReplyTo : .invalidInclude,
                            "`:\(property.name.uppercased()):` `\(value)` is not `<http(s) feed URL>#<post ID>`.",
                            value.hasPrefix("http")
                                ? "Copy the target post's URL exactly, e.g. `https://example.org/social.org#2025-05-01T12:00:00+0100`."
                                : "Use the absolute URL of the feed, not a relative one."))
                } else if let id = PostReference(parsing: value)?.postID, !isPostID(id) {
                    found.append(
                        diagnostic(
                            property, isReply ? .invalidReplyTo : .invalidInclude,
                            "`:\(property.name.uppercased()):` `\(value)` names `\(id)`, which is not a post ID (a timestamp).",
                            "Copy the target post's URL exactly, e.g. `https://example.org/social.org#2025-05-01T12:00:00+0100`."
                        ))
                }
            case .pollEnd:
                if !OrgTimestamp(value).isValid {
                    found.append(
                        diagnostic(
                            property, .invalidPollEnd, "`:POLL_END:` `\(value)` is not a timestamp.",
                            "Write when the poll closes, e.g. `2025-05-08T12:00:00+0100`."))
                }
            case .lang:
                if !isLanguageCode(value) {
                    found.append(
                        diagnostic(
                            property, .invalidLang, "`:LANG:` `\(value)` is not a language code.",
                            "Use an ISO 639-1 code such as `en` or `es`."))
                }
            case .tags:
                if value.allTokens({ isTagWord($0) }) { break }
                let bad = value.tokens().filter { !isTagWord($0) }
                if !bad.isEmpty {
                    found.append(
                        diagnostic(
                            property, .invalidTags,
                            "`:TAGS:` holds `\(bad.joined(separator: " "))`; tags are plain words.",
                            "Separate tags with spaces and drop `#` and punctuation, e.g. `emacs org-mode`."))
                }
            case .visibility:
                if value != "public", value != "mention" {
                    found.append(
                        diagnostic(
                            property, .invalidVisibility,
                            "`:VISIBILITY:` `\(value)` is neither `public` nor `mention`; it is read as public.",
                            "Write `mention` (lower case) to show the post only to the people it mentions."))
                }
            case .group:
                if GroupReference(parsing: value).map({ $0.relayURL.isHTTPURL }) != true {
                    found.append(
                        diagnostic(
                            property, .invalidGroup, "`:GROUP:` `\(value)` is not `<group name> <relay URL>`.",
                            "Write e.g. `:GROUP: Emacs https://relay.org-social.org`."))
                }
            case .migration:
                let valid = Migration(parsing: value).map { $0.oldURL.isHTTPURL && $0.newURL.isHTTPURL } ?? false
                if !valid {
                    found.append(
                        diagnostic(
                            property, .invalidMigration, "`:MIGRATION:` `\(value)` is not `<old URL> <new URL>`.",
                            "Write the old and the new feed URL separated by a space."))
                }
            default:
                break
            }
        }
        if post.hasValue(.pollOption), !post.hasValue(.replyTo) {
            found.append(
                Diagnostic(
                    .voteWithoutPoll, line: post.line,
                    message: "This vote (`:POLL_OPTION:`) has no `:REPLY_TO:` naming the poll.",
                    suggestion: "Add `:REPLY_TO: <poll feed URL>#<poll ID>`."))
        }
        if post.hasValue(.pollEnd), !post.hasPollOptions {
            found.append(
                Diagnostic(
                    .pollWithoutOptions, line: post.line, message: "This poll has no options.",
                    suggestion: "List the options in the body as `- [ ] Option` lines."))
        }
        post.forEachMention { mention in
            guard !mention.feedURL.isHTTPURL, found.admits(.invalidMention) else { return }
            found.append(
                Diagnostic(
                    .invalidMention, line: post.line,
                    message: "The mention `org-social:\(mention.feedURL)` does not point to an http(s) feed URL.",
                    suggestion: "Write `[[org-social:https://…/social.org][name]]`."))
        }
        if kind == .post, post.hasEmptyBody { found.append(Self.emptyPost(line: post.line)) }
    }

    /// The warning about a post with neither text nor a kind that needs none.
    private static func emptyPost(line: Int) -> Diagnostic {
        Diagnostic(
            .emptyPost, line: line, message: "This post has no text and is not a reaction, boost, vote or migration.",
            suggestion: "Write the post's text below its drawer, or delete the post.")
    }

    // MARK: - Helpers

    /// A diagnostic about property or keyword `p`, at its value; the severity is the code's.
    private func diagnostic(_ p: Property, _ code: DiagnosticCode, _ message: String, _ suggestion: String)
        -> Diagnostic
    {
        Diagnostic(code, line: p.line, column: p.valueColumn, message: message, suggestion: suggestion)
    }

    private func line(of keyword: String, in profile: Profile) -> Int? {
        profile.keywords.first { $0.hasName(keyword) }?.line
    }
}

/// `<http(s) URL>#<non-empty ID>` (the ID itself is not checked: references copy the target verbatim).
func isValidReference(_ value: String) -> Bool {
    let trimmed = value.trimmingSpacesAndTabs()
    guard let hash = PostReference.separator(in: trimmed) else { return false }
    let id = trimmed[trimmed.index(after: hash)...]
    // A blank byte is needed for a blank character (one that no combining mark follows), and rarely there.
    let hasBlank = id.utf8.contains(where: isSpaceOrTab) && id.contains { $0 == " " || $0 == "\t" }
    return !hasBlank && trimmed[..<hash].isHTTPURL
}

/// Whether `id` can be a post's ID: a timestamp, strict or in one of the spellings real feeds use
/// (``OrgTimestamp/lenientInstant``); a word or an Org UUID is none (spec §4.2, §15 case 45).
package func isPostID(_ id: String) -> Bool {
    OrgTimestamp(id).lenientInstant != nil
}

/// A URI scheme `[a-zA-Z][a-zA-Z0-9+.-]*:` at the start.
func hasURIScheme(_ value: String) -> Bool {
    guard let colon = value.firstIndex(of: ":"), colon != value.startIndex else { return false }
    let scheme = value[..<colon].unicodeScalars
    guard let first = scheme.first, first.isASCII, first.properties.isAlphabetic else { return false }
    return scheme.allSatisfy {
        $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+.-".unicodeScalars.contains($0))
    }
        && value[value.index(after: colon)...].count > 0
}

/// `YYYY-MM-DD` naming a real day.
func isISODate(_ value: String) -> Bool {
    let parts = value.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
        let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
        parts.allSatisfy({ $0.allSatisfy(\.isASCII) })
    else { return false }
    return (1...12).contains(month) && day >= 1 && day <= TimestampGrammar.daysInMonth(year, month)
}

private func hasImageExtension(_ url: String) -> Bool {
    var path = url.lowercased()
    if let query = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = String(path[..<query]) }
    return path.hasSuffix(".jpg") || path.hasSuffix(".jpeg") || path.hasSuffix(".png")
}
