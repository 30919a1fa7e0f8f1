import Testing

@testable import OrgSocialCLI

/// Help and version output (house rule 17: every level accepts -h/--help, `help <sub>` equals `<sub> --help`).
struct HelpTests {
    static let rootHelp = """
        OVERVIEW: Read, check and write Org Social feeds (social.org files).

        USAGE: orgsocial <subcommand>

        OPTIONS:
          -v, --version           Show the version (also 'orgsocial version').
          -h, --help              Show help information.

        SUBCOMMANDS:
          show                    Print a feed's summary, its JSON model or its bytes.
          check                   Validate feeds and report their errors and warnings.
          init                    Create a new feed file.
          post                    Append a post.
          reply                   Append a reply to a post.
          react                   Append an emoji reaction to a post.
          boost                   Append a boost of a post (a quote boost with --text).
          poll                    Append a poll.
          vote                    Append a vote on a poll.
          edit                    Change a post's text or properties, keeping its ID.
          delete                  Remove a post.
          pin                     Pin one of your posts, or clear the pinned post.
          follow                  Follow a feed.
          unfollow                Stop following a feed.
          group                   Join or leave a relay group.
          migrate                 Announce that the feed moved to a new URL.
          serve                   Host social.org feeds over HTTP, with safe uploads.
          signup                  Sign up on an Org Social Host and keep the vfile.
          publish                 Upload the feed file to its server.
          sync                    Merge the remote feed into your file, then publish.
          engine                  Serve the official apps' engine protocol on stdio.
          timeline                Show the posts of the feeds you follow, newest first.
          fetch                   Download one feed through the cache and summarise it.
          thread                  Show a post, the posts it answers, and its replies.
          notifications           Show mentions, replies, reactions, boosts and votes.
          poll-results            Count the votes on a poll.
          search                  Search a relay's posts by text or tag.
          profile                 Show who follows a feed, as a relay knows it.
          groups                  List a relay's groups, or show one group's posts.
          relay                   Run a relay, or register a feed with one and read its
                                  feeds and statistics.
          bridge                  Connect the feed with Mastodon-API accounts.
          config                  Show or change your settings (config.json).
          completion              Print a shell completion script (bash, zsh or fish).

          See 'orgsocial help <subcommand>' for detailed help.

        """

    static let reactHelp = """
        OVERVIEW: Append an emoji reaction to a post.

        USAGE: orgsocial react [--file <file>] --post <post-url> --emoji <emoji>
                               [--feed-url <url>] [--publish] [--no-publish] [--force]
                               [--timeout <seconds>] [--verbose] [--json]
                               [--publish-<setting> <value> ...]

        OPTIONS:
          -f, --file <file>       The social.org file to change (default:
                                  $ORGSOCIAL_FILE, else "file" in the configuration).
          --post <post-url>       The post reacted to, <feed URL>#<post ID>, copied
                                  exactly. (alias: --to)
          --emoji <emoji>         One emoji, e.g. 👍.
          --feed-url <url>        The URL the feed is published at, used to print post
                                  URLs and to publish (default, for the configured file:
                                  $ORGSOCIAL_FEED_URL, else "feedURL" in the
                                  configuration).
          --publish               Also publish the change to the feed's server, then
                                  update the file to match.
          --no-publish            Only change the file, even if the configuration
                                  publishes automatically.
          --force                 Change the file even if it does not look like an Org
                                  Social feed.
          --timeout <seconds>     Give up on a server that sends nothing, or has not
                                  sent a whole feed, within this many seconds
                                  ($ORGSOCIAL_TIMEOUT). (default: 10)
          --verbose               Say whether the mirror and the relay were told about
                                  the write.
          --json                  Print the outcome as JSON: the post's address, the
                                  file, where it was published and what the mirror and
                                  the relay were told (with --everywhere, one object per
                                  destination).
          --publish-method <method>
                                  How to publish: put, host, webdav, github or forgejo
                                  (codeberg and gitea are forgejo). (values: put, host,
                                  webdav, github, forgejo, codeberg, gitea)
          --publish-url <url>     The WebDAV upload URL (default: the feed URL).
          --publish-username <name>
                                  The WebDAV user name; the token is the password.
          --publish-token <token>
                                  The token (put, github, forgejo) or password (webdav);
                                  '-' reads it from standard input.
          --publish-owner <owner>
                                  The repository's owner (github, forgejo).
          --publish-repo <repo>   The repository holding the feed (github, forgejo).
          --publish-path <path>   The feed's path in the repository (default:
                                  social.org).
          --publish-branch <branch>
                                  The branch to commit to (default: main).
          --publish-instance <url>
                                  The forge's API base (default: https://api.github.com,
                                  or https://codeberg.org for forgejo).
          -h, --help              Show help information.

        """

    /// Every command path below the root.
    static let commandPaths: [[String]] = [
        ["show"], ["check"], ["init"], ["post"], ["reply"], ["react"], ["boost"], ["poll"], ["vote"], ["edit"],
        ["delete"], ["pin"], ["follow"], ["unfollow"], ["group"], ["group", "join"], ["group", "leave"],
        ["migrate"], ["serve"], ["serve", "token"], ["signup"], ["publish"], ["timeline"], ["fetch"],
        ["thread"], ["notifications"], ["poll-results"], ["help"],
    ]

    @Test func rootHelpIsPinned() async {
        let result = await runCLI(["--help"])
        #expect(result.status == 0)
        #expect(result.output == Self.rootHelp)
        #expect(result.error.isEmpty)
    }

    @Test func rootWithoutArgumentsAndShortFlagAndHelpCommandPrintRootHelp() async {
        #expect(await runCLI([]).output == Self.rootHelp)
        #expect(await runCLI(["-h"]).output == Self.rootHelp)
        #expect(await runCLI(["help"]).output == Self.rootHelp)
    }

    @Test func subcommandHelpIsPinned() async {
        let result = await runCLI(["react", "--help"])
        #expect(result.status == 0)
        #expect(result.output == Self.reactHelp)
    }

    @Test(arguments: commandPaths)
    func everyCommandHasHelpInTheFixedLayout(path: [String]) async {
        let long = await runCLI(path + ["--help"])
        let short = await runCLI(path + ["-h"])
        let viaHelp = await runCLI(["help"] + path)
        #expect(long.status == 0)
        #expect(long.error.isEmpty)
        #expect(long.output.hasPrefix("OVERVIEW: "))
        #expect(long.output.contains("\nUSAGE: orgsocial \(path.joined(separator: " "))"))
        #expect(long.output.contains("\nOPTIONS:\n"))
        #expect(long.output.contains("  -h, --help              Show help information.\n"))
        #expect(short.output == long.output)
        #expect(viaHelp.status == 0)
        #expect(viaHelp.output == long.output)
    }

    @Test func helpWinsOverOtherArgumentsAndErrors() async {
        let result = await runCLI(["post", "--bogus", "--help"])
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("OVERVIEW: Append a post."))
    }

    @Test func helpAfterDoubleDashIsAnArgument() async {
        let result = await runCLI(["show", "--", "--help"])
        #expect(result.status == 1)
        #expect(result.error.contains("Cannot read '--help'"))
    }

    @Test func groupHelpListsItsSubcommands() async {
        let result = await runCLI(["group"])
        #expect(result.status == 0)
        #expect(result.output.contains("SUBCOMMANDS:\n  join                    Join a relay group.\n"))
        #expect(result.output.contains("See 'orgsocial help group <subcommand>' for detailed help."))
    }

    /// A root-level command with every kind of option and argument.
    private struct DemoCommand: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                name: "demo", abstract: "Do a demo.", discussion: "A longer paragraph.",
                arguments: [ArgumentDefinition(name: "files", help: "The files.", isRepeating: true)],
                options: [
                    .value("file", short: "f", help: "A file.", isRequired: true),
                    .value("tag", help: "A tag; repeat for several.", isRepeatable: true),
                    .value(
                        "visibility", help: "Who sees it.", allowedValues: ["public", "mention"], defaultValue: "public"
                    ),
                    .flag("json", help: "Print JSON."),
                ])
        }
        init(parsing arguments: ParsedArguments) throws {}
        func run(in context: CommandContext) throws {}
    }

    @Test func helpGeneratorLaysOutEverySection() {
        let help = HelpGenerator(command: DemoCommand.self, path: ["tool", "demo"]).help
        #expect(
            help == """
                OVERVIEW: Do a demo.

                A longer paragraph.

                USAGE: tool demo --file <file> [--tag <tag> ...] [--visibility <visibility>]
                                 [--json] <files> ...

                ARGUMENTS:
                  <files>                 The files.

                OPTIONS:
                  -f, --file <file>       A file.
                  --tag <tag>             A tag; repeat for several.
                  --visibility <visibility>
                                          Who sees it. (values: public, mention; default:
                                          public)
                  --json                  Print JSON.
                  -h, --help              Show help information.

                """)
    }

    @Test(arguments: [["--version"], ["-v"], ["version"]])
    func versionPrintsNameAndVersion(arguments: [String]) async {
        let result = await runCLI(arguments)
        #expect(result.status == 0)
        #expect(result.output == "orgsocial 0.1.0\n")
    }

    @Test func helpForUnknownCommandIsAUsageError() async {
        let result = await runCLI(["help", "pots"])
        #expect(result.status == 2)
        #expect(result.error.hasPrefix("Error: Unknown command 'pots'. Did you mean 'post'?\n"))
    }
}
