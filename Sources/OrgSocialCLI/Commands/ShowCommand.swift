import Foundation
import OrgSocial
import OrgSocialHTML

/// `orgsocial show <file-or-url> [--json | --org | --html]`: a feed's summary, its model as JSON, its
/// exact bytes, or its web page.
struct ShowCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "show",
            abstract: "Print a feed's summary, its JSON model or its bytes.",
            discussion: """
                Without options, prints the profile (title, nick, description and the other header \
                fields, follows and groups), the number of posts of each kind, and one line per post \
                (the first 1000): its ID, its kind and the first line of its text.

                --html prints the page `orgsocial serve` shows a browser, with every post on one page \
                and the stylesheet inside, for hosting beside the file on a static server: \
                `orgsocial show --html social.org > index.html`. Its "file itself" link points to \
                social.org in the same folder.
                """,
            arguments: [
                ArgumentDefinition(
                    name: "file",
                    help: "The social.org file to read; '-' reads standard input; an http:// or https:// URL is "
                        + "downloaded through the cache, as 'fetch' does.")
            ],
            options: [
                .flag("json", help: "Print the whole parsed model as JSON."),
                .flag("org", help: "Print the file's bytes exactly as parsed (a lossless round trip)."),
                .flag("html", help: "Print the feed's web page (one self-contained HTML file)."),
                RefreshOption.option,
            ])
    }

    /// The file (or URL) to read.
    var path: String
    /// `--json`.
    var printsJSON: Bool
    /// `--org`.
    var printsOrg: Bool
    /// `--html`.
    var printsHTML: Bool

    init(parsing arguments: ParsedArguments) throws {
        path = try arguments.requiredArgument("file")
        printsJSON = arguments.flag("json")
        printsOrg = arguments.flag("org")
        printsHTML = arguments.flag("html")
    }

    func validate() throws {
        if printsJSON, printsOrg {
            throw CLIError.validation("Please choose one output: '--json' or '--org', not both.")
        }
        if printsHTML, printsJSON || printsOrg {
            throw CLIError.validation("Please choose one output: '--html' goes with neither '--json' nor '--org'.")
        }
    }

    func run(in context: CommandContext) async throws {
        let feed = try await FeedFile.read(fileOrURL: path, in: context)
        if printsOrg {
            context.writeDocument(feed.serialized())
        } else if printsHTML {
            let page = FeedPage(feed: feed, stylesheet: .embedded, orgFileHref: "social.org")
            context.writeDocument(Array((page.html(for: .all) ?? "").utf8))
        } else if printsJSON {
            try JSONOutput.writeFeed(feed) { context.writeStandardOutput($0) }
        } else {
            // One pass over the posts: the validator's, which also counts them by kind for the summary.
            var counts: [PostKind: Int] = [:]
            let diagnostics = FeedValidator().validate(feed) { kind in counts[kind, default: 0] += 1 }
            context.write(FeedSummary(feed: feed, counts: counts).text)
            if !diagnostics.isEmpty {
                let errors = diagnostics.lazy.filter { $0.severity == .error }.map(\.problemCount).reduce(0, +)
                let total = diagnostics.lazy.map(\.problemCount).reduce(0, +)
                let counts = CheckCommand.countText(errors: errors, warnings: total - errors)
                context.report("note: \(counts); run 'orgsocial check \(path)' to list them.")
            }
        }
    }
}

/// The human-readable summary `orgsocial show` prints.
struct FeedSummary {
    /// The feed to describe.
    let feed: Feed
    /// How many posts there are of each kind (a bare post counts as a plain post), counted by the caller
    /// while validating them (see ``FeedValidator/validate(_:visiting:)``), so they are read once.
    let counts: [PostKind: Int]

    /// The longest text shown for a post.
    static let maximumExcerptLength = 60

    /// The most posts listed one per line (the first ones in the file); a line says how many more there
    /// are. A summary of millions of lines would be no summary, and its table would be held in memory.
    static let maximumListedPosts = 1000

    /// The summary, ending with a line break.
    var text: String {
        let profile = feed.profile
        var fields: [(String, String)] = []
        fields.append(("Title", profile.title ?? "(missing)"))
        fields.append(("Nick", profile.nick ?? "(missing)"))
        if let description = profile.description { fields.append(("Description", description)) }
        if let avatar = profile.avatar { fields.append(("Avatar", avatar)) }
        for link in profile.links { fields.append(("Link", link)) }
        if let location = profile.location { fields.append(("Location", location)) }
        if let birthday = profile.birthday { fields.append(("Birthday", birthday)) }
        if !profile.languages.isEmpty { fields.append(("Languages", profile.languages.joined(separator: " "))) }
        for contact in profile.contacts { fields.append(("Contact", contact)) }
        if let pinned = profile.pinned { fields.append(("Pinned", pinned)) }
        var lines = fields.map { "\($0.0 + ":")\(String(repeating: " ", count: max(1, 13 - $0.0.count)))\($0.1)" }

        lines.append("")
        lines.append("Follows (\(profile.follows.count))" + (profile.follows.isEmpty ? "" : ":"))
        lines += Self.table(profile.follows.map { [$0.label ?? "-", $0.url] }).map { "  " + $0 }
        lines.append("Groups (\(profile.groups.count))" + (profile.groups.isEmpty ? "" : ":"))
        lines += Self.table(profile.groups.map { [$0.name, $0.relayURL] }).map { "  " + $0 }

        lines.append("")
        lines.append("Posts (\(feed.posts.count))" + (feed.posts.isEmpty ? "" : ": " + kindCounts))
        let listed = feed.posts.prefix(Self.maximumListedPosts)
        lines += Self.table(listed.map { [$0.id ?? "(no ID)", $0.kind.rawValue, Self.excerpt(of: $0)] })
            .map { "  " + $0 }
        if feed.posts.count > listed.count {
            lines.append(
                "  … \(feed.posts.count - listed.count) more posts not listed; 'orgsocial show --json' lists them all.")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `2 posts, 1 reply, 1 reaction`, in the order of ``PostKind``.
    var kindCounts: String {
        PostKind.allCases.compactMap { kind in
            let count = counts[kind, default: 0]
            guard count > 0 else { return nil }
            return "\(count) \(count == 1 ? kind.rawValue : Self.plural(of: kind))"
        }.joined(separator: ", ")
    }

    private static func plural(of kind: PostKind) -> String {
        switch kind {
        case .reply: "replies"
        default: kind.rawValue + "s"
        }
    }

    /// The first non-blank line of the body, or a description of a post without text.
    static func excerpt(of post: Post) -> String {
        // Line by line, stopping at the first with text: a huge body is not split into all its lines.
        let body = post.body
        var rest = body[...]
        while !rest.isEmpty {
            let end = rest.firstIndex(of: "\n") ?? rest.endIndex
            let line = rest[..<end]
            if !line.allSatisfy(\.isWhitespace) {
                let text = String(line).trimmingCharacters(in: .whitespaces)
                return text.count > maximumExcerptLength ? text.prefix(maximumExcerptLength - 1) + "…" : text
            }
            rest = end == rest.endIndex ? rest[end...] : rest[rest.index(after: end)...]
        }
        switch post.kind {
        case .reaction: return "\(post.mood ?? "") on \(post.replyTo?.description ?? "?")"
        case .boost: return "boost of \(post.include?.description ?? "?")"
        case .vote: return "'\(post.pollOption ?? "")' on \(post.replyTo?.description ?? "?")"
        case .migration: return post.migration.map { "moved from \($0.oldURL) to \($0.newURL)" } ?? ""
        default: return "(no text)"
        }
    }

    /// Left-aligned columns separated by two spaces (the last column is not padded).
    static func table(_ rows: [[String]]) -> [String] {
        guard let columns = rows.map(\.count).max() else { return [] }
        var widths = Array(repeating: 0, count: columns)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        return rows.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
            }.joined(separator: "  ")
        }
    }
}
