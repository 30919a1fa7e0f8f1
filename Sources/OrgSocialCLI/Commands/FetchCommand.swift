import Foundation
import OrgSocial
import OrgSocialClient

/// `orgsocial fetch <feed-url>`: reads one feed the way the timeline does and summarises it.
struct FetchCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "fetch",
            abstract: "Download one feed through the cache and summarise it.",
            discussion: """
                Prints whether the feed changed since the cached copy, where it answered from (and whether it \
                moved for good), its validators, its nick and title, and how many posts it has.
                """,
            arguments: [ArgumentDefinition(name: "feed-url", help: "The feed's http:// or https:// URL.")],
            options: [.flag("json", help: "Print the summary as JSON."), ServerTimeout.option, RefreshOption.option])
    }

    var url: String
    var printsJSON: Bool

    init(parsing arguments: ParsedArguments) throws {
        url = try arguments.requiredArgument("feed-url")
        printsJSON = arguments.flag("json")
    }

    func validate() throws {
        if !FeedFileOptions.isHTTPURL(url) {
            throw CLIError.invalidValue(
                value: url, option: "<feed-url>", reason: "Give the http:// or https:// URL of a feed.")
        }
    }

    func run(in context: CommandContext) async throws {
        guard let feedURL = URL(string: url) else {
            throw CLIError.invalidValue(
                value: url, option: "<feed-url>", reason: "Give the http:// or https:// URL of a feed.")
        }
        let result = try await ReadingOptions.makeFetcher(in: context).fetch(feedURL)
        struct Output: Encodable {
            var url: String
            var finalURL: String
            var status: String
            var etag: String?
            var lastModified: String?
            var permanentRedirect: String?
            var nick: String?
            var title: String?
            var posts: Int
            var diagnostics: Int
            var downloadedBytes: Int
        }
        let output = Output(
            url: url, finalURL: result.finalURL.absoluteString, status: result.status.rawValue, etag: result.etag,
            lastModified: result.lastModified, permanentRedirect: result.permanentRedirect?.absoluteString,
            nick: result.feed.profile.nick, title: result.feed.profile.title, posts: result.feed.posts.count,
            diagnostics: result.feed.diagnostics.count, downloadedBytes: result.downloadedBytes)
        if printsJSON {
            context.write(try JSONOutput.text(output))
            return
        }
        var lines = [
            "\(url): "
                + (result.status == .fresh
                    ? "downloaded (\(result.downloadedBytes) bytes)" : "not modified (cached copy)")
        ]
        if result.finalURL.absoluteString != url { lines.append("  answered from: \(result.finalURL.absoluteString)") }
        if let moved = output.permanentRedirect {
            lines.append("  moved permanently to: \(moved) (update your follow)")
        }
        lines.append("  nick: \(output.nick ?? "-"), title: \(output.title ?? "-")")
        lines.append("  posts: \(output.posts)")
        if let etag = output.etag { lines.append("  ETag: \(etag)") }
        if let lastModified = output.lastModified { lines.append("  Last-Modified: \(lastModified)") }
        if output.diagnostics > 0 { lines.append("  diagnostics: \(output.diagnostics)") }
        context.write(lines.joined(separator: "\n") + "\n")
    }
}
