import Foundation
import OrgSocial
import OrgSocialClient

/// `orgsocial poll-results <post-url>`: counts a poll's votes from the feeds you follow.
struct PollResultsCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "poll-results",
            abstract: "Count the votes on a poll.",
            discussion: """
                Reads your feed, the feeds you follow and the poll's feed. Each feed's latest valid vote \
                counts once; votes after POLL_END and votes for options the poll doesn't have are ignored. \
                Votes from feeds you don't follow are not seen, unless a relay is given (--relay, \
                $ORGSOCIAL_RELAY or "relayURL" in the configuration): then the feeds of the voters it lists are \
                read too. Without a feed of your own, only the poll's feed and those the relay names are read. \
                Feeds in the "block" setting are never read, so their votes do not count.
                """,
            arguments: [ArgumentDefinition(name: "post-url", help: "The poll's URL, <feed URL>#<ID>.")],
            options: ReadingOptions.definitions + [.flag("json", help: "Print the results as JSON.")])
    }

    var input: PostURLInput
    var postURL: String { input.postURL }
    var printsJSON: Bool { input.printsJSON }

    init(parsing arguments: ParsedArguments) throws {
        input = try PostURLInput(parsing: arguments)
    }

    func validate() throws {
        try input.validate(naming: "a poll's", allowsRelay: true)
    }

    func run(in context: CommandContext) async throws {
        let now = try context.now()
        let (index, timeline) = try await input.fetchIndex(now: now, relayLookup: .pollVotes, in: context)
        guard let results = index.pollResults(for: postURL) else {
            try input.failNotFound(in: timeline, notFound: "\(postURL) is not a poll in its feed.", in: context)
        }
        if printsJSON {
            struct Option: Encodable {
                var option: String
                var votes: Int
            }
            struct Output: Encodable {
                var poll: String
                var options: [Option]
                var totalVotes: Int
                var closed: Bool
            }
            let closed = results.closesAt.map { $0 <= now } ?? false
            context.write(
                try JSONOutput.text(
                    Output(
                        poll: postURL, options: results.counts.map { Option(option: $0.option, votes: $0.votes) },
                        totalVotes: results.totalVotes, closed: closed)))
            return
        }
        var text = TimelineRenderer.wrap(results.poll.post.body, width: 76).prefix(1).joined() + "\n"
        for ((option, votes), percent) in zip(results.counts, results.percentages) {
            let bar = String(repeating: "█", count: percent / 5)
            text += "  \(option): \(votes) (\(percent)%) \(bar)\n"
        }
        let state: String
        if let closesAt = results.closesAt {
            state = closesAt <= now ? "closed" : "closes \(TimelineRenderer.relativeTime(from: closesAt, to: now))"
        } else {
            state = "no end date"
        }
        text += "\(results.totalVotes) vote\(results.totalVotes == 1 ? "" : "s"), \(state)\n"
        context.write(text)
    }
}
