import Foundation
import OrgSocial
import OrgSocialClient

/// `orgsocial groups [<name>] [--relay <url>]`: a relay's groups, or one group's posts.
struct GroupsCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "groups",
            abstract: "List a relay's groups, or show one group's posts.",
            discussion: """
                Without a name, prints each group's name and slug. With a name (or slug), prints how many \
                members the group has and its posts as threads, newest first, each with its author and text \
                read from its feed (concurrently, through the cache; a feed that cannot be read shows the post \
                URL and why). Posts from feeds in the "block" setting are left out. On a terminal the posts go \
                through $PAGER (default: less -FRX) unless --no-pager.

                \(membershipRule)
                """,
            arguments: [ArgumentDefinition(name: "name", help: "The group's name or slug.", isOptional: true)],
            options: [
                RelayOptions.relayOption, ServerTimeout.option, RefreshOption.option,
                .flag("json", help: "Print the groups or posts as JSON."), Pager.option,
            ])
    }

    /// How a relay decides who is in a group, as `groups <name>` and `group join` explain it.
    static let membershipRule = """
        A group's members are the feeds with at least one post in it (a post with :GROUP: <name> <relay URL>, \
        made with 'orgsocial post --group "<name> <relay URL>"'); the #+GROUP: line that 'group join' adds to \
        your header is your own subscription, which relays ignore. A relay started with --site-domain counts \
        only posts whose :GROUP: names it.
        """

    var name: String?
    var relayOption: String?
    var printsJSON: Bool
    /// `--no-pager`.
    var pager: Pager

    init(parsing arguments: ParsedArguments) throws {
        name = arguments.argument("name")
        relayOption = arguments.value("relay")
        printsJSON = arguments.flag("json")
        pager = Pager(parsing: arguments)
    }

    func validate() throws {}

    func run(in context: CommandContext) async throws {
        let client = try RelayOptions.makeClient(option: relayOption, in: context)
        guard let name else {
            let groups = try await client.groups()
            if printsJSON {
                struct Item: Encodable {
                    var name: String
                    var slug: String
                }
                context.write(try JSONOutput.text(groups.map { Item(name: $0.name, slug: $0.slug) }))
                return
            }
            context.write(groups.map { "\($0.name)  (\($0.slug))\n" }.joined())
            return
        }
        let known = (try? await client.groups()) ?? []
        let group =
            known.first { $0.name.lowercased() == name.lowercased() || $0.slug == name.lowercased() }
            ?? RelayGroup(name: name)
        let blocked = TimelineOptions(blockedFeeds: try ReadingOptions.blockedFeeds(in: context))
        let messages = try await client.messages(in: group).removingPosts(blockedBy: blocked)
        if printsJSON {
            struct Node: Encodable {
                var post: String
                var replies: [Node]
                init(_ node: RelayThreadNode) {
                    post = node.post
                    replies = node.children.map(Node.init)
                }
            }
            struct Output: Encodable {
                var group: String?
                var members: [String]
                var posts: [Node]
            }
            context.write(
                try JSONOutput.text(
                    Output(group: messages.group, members: messages.members, posts: messages.posts.map(Node.init))))
            return
        }
        let found = await PostLookup(fetcher: ReadingOptions.makeFetcher(in: context))
            .posts(at: messages.posts.flatMap(\.allPosts))
        let renderer = TimelineRenderer(usesColor: TimelineRenderer.usesColor(in: context), now: try context.now())
        let members = messages.members.count
        var text = StyledText("\(messages.group ?? group.name): \(members) member\(members == 1 ? "" : "s")\n\n")
        context.report(
            "note: members are the feeds with a post in the group; to be one, post into it: orgsocial post "
                + "--group \"\(messages.group ?? group.name) \(client.baseURL.absoluteString)\" --text …")
        func add(_ node: RelayThreadNode, depth: Int) {
            text += renderer.render(node.post, found: found[node.post], indent: depth * 4)
            for child in node.children { add(child, depth: depth + 1) }
        }
        for node in messages.posts { add(node, depth: 0) }
        pager.show(text, in: context)
    }
}
