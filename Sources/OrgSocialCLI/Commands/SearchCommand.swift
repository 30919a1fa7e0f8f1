import Foundation
import OrgSocialClient

/// `orgsocial search <text> | --tag <tag> [--relay <url>]`: `GET /search/` on the relay.
struct SearchCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "search",
            abstract: "Search a relay's posts by text or tag.",
            discussion: """
                Prints the matching post URLs, newest first, one page at a time. Text matches a post's \
                content or tags (case-insensitive); --tag matches one whole tag.
                """,
            arguments: [ArgumentDefinition(name: "text", help: "The text to look for.", isOptional: true)],
            options: [
                .value("tag", valueName: "tag", help: "Search for this tag instead of text."),
                .value("page", valueName: "n", help: "The page to show.", defaultValue: "1"),
                .value(
                    "per-page", valueName: "n", help: "Posts per page (the relay allows up to 50).",
                    defaultValue: "10"),
                RelayOptions.relayOption,
                .flag("json", help: "Print the page as JSON."),
            ])
    }

    var text: String?
    var tag: String?
    var pageText: String
    var perPageText: String
    var relayOption: String?
    var printsJSON: Bool

    init(parsing arguments: ParsedArguments) throws {
        text = arguments.argument("text")
        tag = arguments.value("tag")
        pageText = arguments.value("page") ?? "1"
        perPageText = arguments.value("per-page") ?? "10"
        relayOption = arguments.value("relay")
        printsJSON = arguments.flag("json")
    }

    func validate() throws {
        if (text ?? "").isEmpty == (tag ?? "").isEmpty {
            throw CLIError.validation("Give either some text to search for or --tag <tag>, but not both.")
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
        let client = try RelayOptions.makeClient(option: relayOption, in: context)
        let query: RelaySearchQuery = tag.map { .tag($0) } ?? .text(text ?? "")
        let result = try await client.search(query, page: Int(pageText) ?? 1, perPage: Int(perPageText) ?? 10)
        if printsJSON {
            struct Output: Encodable {
                var posts: [String]
                var total: Int
                var page: Int
                var perPage: Int
                var hasNext: Bool
            }
            context.write(
                try JSONOutput.text(
                    Output(
                        posts: result.posts, total: result.total, page: result.page, perPage: result.perPage,
                        hasNext: result.hasNext)))
            return
        }
        if result.posts.isEmpty {
            context.report("No posts found.")
            return
        }
        context.write(result.posts.map { $0 + "\n" }.joined())
        let more = result.hasNext ? " (more: --page \(result.page + 1))" : ""
        context.report("\(result.total) found, page \(result.page)\(more).")
    }
}
