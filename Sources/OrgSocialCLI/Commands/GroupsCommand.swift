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

                With a mirror given (--mirror, $ORGSOCIAL_MIRROR or "mirror" in the configuration, unless a relay \
                is given as strongly) the mirror's groups/ answers, its posts whole (no feed is read), the \
                members being the feeds with a post listed; when it fails, the relay is asked, with a note on \
                standard error.

                \(membershipRule)
                """,
            arguments: [ArgumentDefinition(name: "name", help: "The group's name or slug.", isOptional: true)],
            options: [
                RelayOptions.relayOption, MirrorOptions.option, ServerTimeout.option, RefreshOption.option,
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
    /// `--mirror`.
    var mirrorOption: String?
    var printsJSON: Bool
    /// `--no-pager`.
    var pager: Pager

    init(parsing arguments: ParsedArguments) throws {
        name = arguments.argument("name")
        relayOption = arguments.value("relay")
        mirrorOption = arguments.value("mirror")
        printsJSON = arguments.flag("json")
        pager = Pager(parsing: arguments)
    }

    func validate() throws {
        try MirrorOptions.validate(mirrorOption, relayOption: relayOption)
    }

    /// The groups' names and slugs, and the group's posts and where to post into it, from the mirror (or
    /// `nil` after a note when it fails) or the relay.
    private struct Source {
        var groups: () async throws -> [(name: String, slug: String)]
        var messages: (String) async throws -> (RelayGroupMessages, [String: PostLookup.Outcome]?, relay: String)
    }

    func run(in context: CommandContext) async throws {
        if let mirror = try MirrorOptions.client(
            option: mirrorOption, relayOption: relayOption, hasDefaultRelay: true, in: context)
        {
            let shown = try await MirrorOptions.read(
                mirror, instead: "asking the relay instead.", in: context,
                { try await show(from: Self.source($0), in: context) })
            if shown != nil { return }
        }
        let client = try RelayOptions.makeClient(option: relayOption, in: context)
        try await show(from: Self.source(client), in: context)
    }

    /// The mirror as a source of groups.
    private static func source(_ mirror: MirrorClient) -> Source {
        let groups: @Sendable () async throws -> [MirrorGroup] = { try await mirror.groups() }
        return Source(
            groups: { try await groups().map { ($0.name, $0.slug) } },
            messages: { name in
                let known = try await groups()
                guard
                    let group = known.first(where: { $0.name.lowercased() == name.lowercased() || $0.slug == name })
                else {
                    throw OrgSocialClientError.mirrorError(
                        url: mirror.baseURL.absoluteString + "/groups/", statusCode: 404,
                        message: "The mirror has no group \(name) (it has: "
                            + known.map(\.name).joined(separator: ", ") + ")")
                }
                let (messages, entries) = try await mirror.messages(in: group)
                return (messages, entries.mapValues { .found($0) }, group.relay ?? mirror.baseURL.absoluteString)
            })
    }

    /// The relay as a source of groups.
    private static func source(_ client: RelayClient) -> Source {
        Source(
            groups: { try await client.groups().map { ($0.name, $0.slug) } },
            messages: { name in
                let known = (try? await client.groups()) ?? []
                let group =
                    known.first { $0.name.lowercased() == name.lowercased() || $0.slug == name.lowercased() }
                    ?? RelayGroup(name: name)
                return (try await client.messages(in: group), nil, client.baseURL.absoluteString)
            })
    }

    private func show(from source: Source, in context: CommandContext) async throws {
        guard let name else {
            let groups = try await source.groups()
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
        let blocked = TimelineOptions(blockedFeeds: try ReadingOptions.blockedFeeds(in: context))
        let (all, entries, relay) = try await source.messages(name)
        let messages = all.removingPosts(blockedBy: blocked)
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
        let found =
            if let entries {
                entries
            } else {
                await PostLookup(fetcher: ReadingOptions.makeFetcher(in: context))
                    .posts(at: messages.posts.flatMap(\.allPosts))
            }
        let renderer = TimelineRenderer(usesColor: TimelineRenderer.usesColor(in: context), now: try context.now())
        let members = messages.members.count
        var text = StyledText("\(messages.group ?? name): \(members) member\(members == 1 ? "" : "s")\n\n")
        context.report(
            "note: members are the feeds with a post in the group; to be one, post into it: orgsocial post "
                + "--group \"\(messages.group ?? name) \(relay)\" --text …")
        func add(_ node: RelayThreadNode, depth: Int) {
            text += renderer.render(node.post, found: found[node.post], indent: depth * 4)
            for child in node.children { add(child, depth: depth + 1) }
        }
        for node in messages.posts { add(node, depth: 0) }
        pager.show(text, in: context)
    }
}
