import Foundation
import OrgSocialClient
import OrgSocialText

/// `orgsocial profile <feed-url> [--relay <url>]`: `GET /profile/` on the relay.
struct ProfileCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "profile",
            abstract: "Show who follows a feed, as a relay knows it.",
            discussion: """
                With a mirror given (--mirror, $ORGSOCIAL_MIRROR or "mirror" in the configuration, unless a relay \
                is given as strongly) the mirror's profile of the feed is shown instead: its header, the feeds it \
                follows and its counts (a mirror counts the followers but does not list them; with --json \
                {"feed", "followerCount", "followingCount", "postCount", "nick", "title", "description", \
                "follows"}). When the mirror fails, the relay is asked, with a note on standard error.
                """,
            arguments: [ArgumentDefinition(name: "feed-url", help: "The feed's URL, exactly as the relay knows it.")],
            options: [
                RelayOptions.relayOption, MirrorOptions.option, ServerTimeout.option,
                .flag("json", help: "Print the profile as JSON."),
            ])
    }

    var input: RelayFeedInput
    var feedURL: String { input.feedURL }
    var relayOption: String? { input.relayOption }
    var printsJSON: Bool { input.printsJSON }
    /// `--mirror`.
    var mirrorOption: String?

    init(parsing arguments: ParsedArguments) throws {
        input = try RelayFeedInput(parsing: arguments)
        mirrorOption = arguments.value("mirror")
    }

    func validate() throws {
        try input.validate()
        try MirrorOptions.validate(mirrorOption, relayOption: relayOption)
    }

    func run(in context: CommandContext) async throws {
        if let mirror = try MirrorOptions.client(
            option: mirrorOption, relayOption: relayOption, hasDefaultRelay: true, in: context)
        {
            if let profile = try await MirrorOptions.read(
                mirror, instead: "asking the relay instead.", in: context, { try await $0.profile(of: feedURL) })
            {
                try show(profile, in: context)
                return
            }
        }
        let client = try RelayOptions.makeClient(option: relayOption, in: context)
        let profile = try await client.profile(of: feedURL)
        if printsJSON {
            struct Output: Encodable {
                var feed: String
                var followers: [String]
            }
            context.write(try JSONOutput.text(Output(feed: profile.feed, followers: profile.followers)))
            return
        }
        var lines = ["\(profile.feed)", "  followers: \(profile.followers.count)"]
        lines += profile.followers.map { "    \($0)" }
        context.write(lines.joined(separator: "\n") + "\n")
    }

    /// Prints a mirror's profile: the feed, its nick and title, its counts and the feeds it follows.
    private func show(_ profile: MirrorProfile, in context: CommandContext) throws {
        let follows = profile.follows.compactMap(\.url)
        if printsJSON {
            struct Output: Encodable {
                var feed: String
                var followerCount: Int?
                var followingCount: Int?
                var postCount: Int?
                var nick: String?
                var title: String?
                var description: String?
                var follows: [String]
            }
            context.write(
                try JSONOutput.text(
                    Output(
                        feed: profile.url ?? feedURL, followerCount: profile.followerCount,
                        followingCount: profile.followingCount ?? follows.count, postCount: profile.postCount,
                        nick: profile.nick, title: profile.title, description: profile.description, follows: follows)))
            return
        }
        var lines = [profile.url ?? feedURL]
        if let name = profile.nick ?? profile.title { lines.append("  \(TerminalText.line(name))") }
        lines.append("  followers: \(profile.followerCount.map(String.init) ?? "unknown")")
        if let posts = profile.postCount { lines.append("  posts: \(posts)") }
        lines.append("  follows: \(follows.count)")
        lines += follows.map { "    \(TerminalText.line($0))" }
        context.write(lines.joined(separator: "\n") + "\n")
    }
}
