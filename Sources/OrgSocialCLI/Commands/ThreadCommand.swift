import Foundation
import OrgSocial
import OrgSocialClient

/// `orgsocial thread <post-url>`: a post and its replies, computed from your follows.
struct ThreadCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "thread",
            abstract: "Show a post, the posts it answers, and its replies.",
            discussion: """
                Reads your feed, the feeds you follow and the post's own feed, then finds the replies \
                (REPLY_TO equal to the post's URL) among them. Replies from feeds you don't follow are not seen, \
                unless a relay is given (--relay, $ORGSOCIAL_RELAY or "relayURL" in the configuration): then \
                the feeds of every post the relay places in the thread are read too. Without a feed of your \
                own, only the post's feed and those the relay names are read. Feeds in the "block" setting are \
                never read. On a terminal the thread goes through $PAGER (default: less -FRX) unless --no-pager.

                With a mirror (--mirror, $ORGSOCIAL_MIRROR, "mirror" in the configuration, or the default mirror \
                when no relay is given) the thread is the mirror's, in one request; when the mirror fails, the \
                feeds are read as above, with a note on standard error.
                """,
            arguments: [ArgumentDefinition(name: "post-url", help: "The post's URL, <feed URL>#<ID>.")],
            options: ReadingOptions.definitions + [
                MirrorOptions.option, .flag("json", help: "Print the thread as JSON."), Pager.option,
            ])
    }

    var input: PostURLInput
    var postURL: String { input.postURL }
    var printsJSON: Bool { input.printsJSON }
    /// `--no-pager`.
    var pager: Pager

    init(parsing arguments: ParsedArguments) throws {
        input = try PostURLInput(parsing: arguments)
        pager = Pager(parsing: arguments)
    }

    func validate() throws {
        try input.validate(naming: "a post's", allowsRelay: true)
    }

    func run(in context: CommandContext) async throws {
        let now = try context.now()
        if let mirror = try input.reading.mirror(in: context) {
            let blocked = try ReadingOptions.directOptions(now: now, in: context)
            if let found = try await MirrorOptions.read(
                mirror, instead: "reading the feeds instead.", in: context,
                { try await $0.thread(of: postURL).localThread(asking: postURL) }),
                !blocked.blocks(postURL: found.thread.entry.url)
            {
                let thread = found.thread.removingReplies(blockedBy: blocked)
                try show(parents: found.parents, thread: thread, now: now, in: context)
                return
            }
        }
        let (index, timeline) = try await input.fetchIndex(now: now, relayLookup: .thread, in: context)
        guard let thread = index.thread(for: postURL) else {
            try input.failNotFound(
                in: timeline, notFound: "the post \(postURL) was not found in its feed.", in: context)
        }
        try show(parents: Array(index.parentChain(of: postURL).reversed()), thread: thread, now: now, in: context)
    }

    /// Prints the thread: the ancestors (oldest first), then the post and its replies, indented by depth.
    private func show(
        parents: [TimelinePost], thread: LocalIndex.ThreadNode, now: Date, in context: CommandContext
    ) throws {
        if printsJSON {
            struct Node: Encodable {
                var post: PostJSON
                var replies: [Node]
            }
            struct Output: Encodable {
                var parents: [PostJSON]
                var thread: Node
            }
            func node(_ tree: LocalIndex.ThreadNode) -> Node {
                Node(post: PostJSON(tree.entry), replies: tree.replies.map(node))
            }
            context.write(try JSONOutput.text(Output(parents: parents.map(PostJSON.init), thread: node(thread))))
            return
        }
        let renderer = TimelineRenderer(usesColor: TimelineRenderer.usesColor(in: context), now: now)
        var text = parents.map { renderer.render($0) }.joined()
        func add(_ tree: LocalIndex.ThreadNode, depth: Int) {
            text += renderer.render(tree.entry, indent: depth * 4)
            for reply in tree.replies { add(reply, depth: depth + 1) }
        }
        add(thread, depth: 0)
        pager.show(text, in: context)
    }
}
