import Foundation
import OrgSocial
import OrgSocialClient
import RelayCore

/// `orgsocial search <text> | --tag <tag> [--relay <url>]`: `GET /search/` on the relay.
struct SearchCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "search",
            abstract: "Search a relay's posts by text or tag.",
            discussion: """
                Prints the matching posts, newest first, one page at a time, each with its author and text \
                read from its feed (concurrently, through the cache; a feed that cannot be read shows the \
                post URL and why). Text matches a post's content or tags (case-insensitive); --tag matches \
                one whole tag. Posts from feeds in the "block" setting are left out, and their feeds are not read. \
                On a terminal the posts go through $PAGER (default: less -FRX) unless --no-pager.

                With a mirror given (--mirror, $ORGSOCIAL_MIRROR or "mirror" in the configuration, unless a relay \
                is given as strongly) the mirror's search/ answers, with each post's author and text in one \
                request; when it fails, the relay is asked, with a note on standard error.
                """,
            arguments: [ArgumentDefinition(name: "text", help: "The text to look for.", isOptional: true)],
            options: [
                .value("tag", valueName: "tag", help: "Search for this tag instead of text."),
                .value("page", valueName: "n", help: "The page to show.", defaultValue: "1"),
                .value(
                    "per-page", valueName: "n", help: "Posts per page (the relay allows up to 50).",
                    defaultValue: "10"),
                RelayOptions.relayOption, MirrorOptions.option, ServerTimeout.option, RefreshOption.option,
                .flag("json", help: "Print the page as JSON."),
                Pager.option,
            ])
    }

    var text: String?
    var tag: String?
    var pageText: String
    var perPageText: String
    var relayOption: String?
    /// `--mirror`.
    var mirrorOption: String?
    var printsJSON: Bool
    /// `--no-pager`.
    var pager: Pager

    init(parsing arguments: ParsedArguments) throws {
        pager = Pager(parsing: arguments)
        text = arguments.argument("text")
        tag = arguments.value("tag")
        pageText = arguments.value("page") ?? "1"
        perPageText = arguments.value("per-page") ?? "10"
        relayOption = arguments.value("relay")
        mirrorOption = arguments.value("mirror")
        printsJSON = arguments.flag("json")
    }

    func validate() throws {
        try MirrorOptions.validate(mirrorOption, relayOption: relayOption)
        switch ((text ?? "").isEmpty, (tag ?? "").isEmpty) {
        case (true, true):
            throw CLIError.validation(
                "Nothing to search for. Give the text to look for ('orgsocial search emacs') or a tag "
                    + "('orgsocial search --tag emacs').")
        case (false, false):
            throw CLIError.validation(
                "Give either the text to search for or --tag <tag>, not both: '--tag' matches one whole tag, "
                    + "the text matches posts' content and tags.")
        default: break
        }
        if let text, RelaySearchText.isTooLong(text) {
            throw CLIError.invalidValue(
                value: "\(text.prefix(40))…", option: "<text>",
                reason: "Search for at most \(RelaySearchText.maximumQueryLength) characters: the relay refuses longer "
                    + "text.")
        }
        if Int(pageText).map({ $0 < 1 }) ?? true {
            throw CLIError.invalidValue(
                value: pageText, option: "--page <n>", reason: "Give a page number, at least 1.")
        }
        if Int(perPageText).map({ !(1...50).contains($0) }) ?? true {
            throw CLIError.invalidValue(
                value: perPageText, option: "--per-page <n>", reason: "Give a number of posts from 1 to 50.")
        }
    }

    func run(in context: CommandContext) async throws {
        let query: RelaySearchQuery = tag.map { .tag($0) } ?? .text(text ?? "")
        let page = Int(pageText) ?? 1
        let perPage = Int(perPageText) ?? 10
        var result: RelaySearchPage
        var found: [String: PostLookup.Outcome] = [:]
        let mirror = try MirrorOptions.client(
            option: mirrorOption, relayOption: relayOption, hasDefaultRelay: true, in: context)
        if let mirror,
            let answer = try await MirrorOptions.read(
                mirror, instead: "asking the relay instead.", in: context,
                { try await $0.search(query, page: page, perPage: perPage).searchPage(asked: page, perPage: perPage) })
        {
            (result, found) = answer
        } else {
            let client = try RelayOptions.makeClient(option: relayOption, in: context)
            result = try await client.search(query, page: page, perPage: perPage)
        }
        let blocked = TimelineOptions(blockedFeeds: try ReadingOptions.blockedFeeds(in: context))
        let listed = result.posts.count
        result.posts.removeAll { blocked.blocks(postURL: $0) }
        let hidden = listed - result.posts.count
        if mirror == nil || found.isEmpty {
            found = await PostLookup(fetcher: ReadingOptions.makeFetcher(in: context)).posts(at: result.posts)
        }
        if printsJSON {
            struct Item: Encodable {
                var url: String
                var nick: String?
                var text: String?
                var error: String?
            }
            struct Output: Encodable {
                var posts: [Item]
                var total: Int
                var page: Int
                var perPage: Int
                var hasNext: Bool
            }
            let items = result.posts.map { url in
                switch found[url] {
                case .found(let entry): Item(url: url, nick: entry.author.displayName, text: entry.post.body)
                case .failed(let reason): Item(url: url, error: reason)
                case nil: Item(url: url)
                }
            }
            context.write(
                try JSONOutput.text(
                    Output(
                        posts: items, total: result.total, page: result.page, perPage: result.perPage,
                        hasNext: result.hasNext)))
            return
        }
        if result.posts.isEmpty {
            context.report("No posts found.")
            return
        }
        let renderer = TimelineRenderer(usesColor: TimelineRenderer.usesColor(in: context), now: try context.now())
        pager.show(result.posts.map { renderer.render($0, found: found[$0]) }.joined(), in: context)
        let more = result.hasNext ? " (more: --page \(result.page + 1))" : ""
        let hiddenNote = hidden == 0 ? "" : ", \(hidden) from blocked feeds not shown"
        context.report("\(result.total) found, page \(result.page)\(hiddenNote)\(more).")
    }
}
