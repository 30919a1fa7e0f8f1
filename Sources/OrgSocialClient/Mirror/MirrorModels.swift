import Foundation
public import OrgSocial

/// One page of a mirror's list (`{"data": [...], "meta": {"total", "page", "perPage", "totalPages"}}`).
public struct MirrorPage<Item: Sendable>: Sendable {
    /// The items, in the mirror's order.
    public var items: [Item]
    /// How many match in all (`meta.total`), if the mirror said.
    public var total: Int?
    /// This page's number as the mirror gave it (`meta.page`), if it did.
    public var page: Int?
    /// The page size (`meta.perPage`), if the mirror said.
    public var perPage: Int?
    /// How many pages there are (`meta.totalPages`), if the mirror said.
    public var totalPages: Int?

    /// Whether a later page exists, as the official engine reads it: `(page ?? 1) < (totalPages ?? 0)`.
    public var hasMore: Bool { (page ?? 1) < (totalPages ?? 0) }

    init(items: [Item], meta: MirrorPageMeta?) {
        self.items = items
        total = meta?.total
        page = meta?.page
        perPage = meta?.perPage
        totalPages = meta?.totalPages
    }
}

/// A list's `meta`: every value optional.
struct MirrorPageMeta: Decodable {
    var total: Int?
    var page: Int?
    var perPage: Int?
    var totalPages: Int?
}

/// A text value a mirror may send as a string or as an object (`{name, relay|url|slug}`), as the official
/// engine reads `group` and `bot`: a string as it is (`""` is none), an object as its `name` and the first
/// of `relay`, `url` or `slug` joined by a space; any other value is none.
struct MirrorFlexibleText: Decodable, Sendable {
    var value: String?

    private enum Keys: String, CodingKey { case name, relay, url, slug }

    init(from decoder: any Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self) {
            value = text.isEmpty ? nil : text
            return
        }
        guard let container = try? decoder.container(keyedBy: Keys.self) else { return }
        let name = (try? container.decodeIfPresent(String.self, forKey: .name)) ?? nil
        let place = [Keys.relay, .url, .slug].lazy
            .compactMap { (try? container.decodeIfPresent(String.self, forKey: $0)) ?? nil }.first
        let parts = [name, place].compactMap { $0 }.filter { !$0.isEmpty }
        value = parts.isEmpty ? nil : parts.joined(separator: " ")
    }
}

/// A post as a mirror sends it (every list, the nodes of a thread, a notification's post). `uri`
/// (`<feed URL>#<ID>`) is required; `feedUrl` and `id` override its two halves; `content` is the post's
/// Org text.
public struct MirrorPost: Sendable, Hashable, Decodable {
    /// Who wrote it, as the mirror knows.
    public struct Author: Sendable, Hashable, Decodable {
        /// The feed URL (the engine ignores it; ``MirrorPost/feedURL`` is the feed).
        public var url: String?
        /// The nickname.
        public var nick: String?
        /// The avatar URL.
        public var avatar: String?
    }

    /// `<feed URL>#<ID>`.
    public var uri: String
    /// The feed, when the mirror gives it apart from ``uri``.
    public var feedUrl: String?
    /// The ID, when the mirror gives it apart from ``uri``.
    public var id: String?
    /// When it was posted (`YYYY-MM-DDTHH:MM:SSZ`), if given.
    public var createdAt: String?
    /// `post`, `reply`, `reaction`, `boost`, `vote`… (informative).
    public var type: String?
    /// The author.
    public var author: Author?
    /// The post's Org text.
    public var content: String?
    /// `LANG`.
    public var lang: String?
    /// `TAGS`.
    public var tags: [String]?
    /// `CLIENT`.
    public var client: String?
    /// `REPLY_TO`.
    public var replyTo: String?
    /// `POLL_END`.
    public var pollEnd: String?
    /// `POLL_OPTION`.
    public var pollOption: String?
    /// `GROUP` (our relay sends the group's slug).
    public var group: String?
    /// `MOOD`.
    public var mood: String?
    /// `INCLUDE`.
    public var include: String?
    /// `VISIBILITY`.
    public var visibility: String?

    private enum CodingKeys: String, CodingKey {
        case uri, feedUrl, id, createdAt, type, author, content, lang, tags, client, replyTo, pollEnd, pollOption
        case group, mood, include, visibility
    }

    /// Decodes a post: `uri` is required, every other key optional, and a known key of the wrong type
    /// fails, as it does in the official engine.
    /// - Parameter decoder: the decoder.
    /// - Throws: `DecodingError`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        uri = try container.decode(String.self, forKey: .uri)
        feedUrl = try container.decodeIfPresent(String.self, forKey: .feedUrl)
        id = try container.decodeIfPresent(String.self, forKey: .id)
        createdAt = try container.decodeIfPresent(String.self, forKey: .createdAt)
        type = try container.decodeIfPresent(String.self, forKey: .type)
        author = try container.decodeIfPresent(Author.self, forKey: .author)
        content = try container.decodeIfPresent(String.self, forKey: .content)
        lang = try container.decodeIfPresent(String.self, forKey: .lang)
        tags = try container.decodeIfPresent([String].self, forKey: .tags)
        client = try container.decodeIfPresent(String.self, forKey: .client)
        replyTo = try container.decodeIfPresent(String.self, forKey: .replyTo)
        pollEnd = try container.decodeIfPresent(String.self, forKey: .pollEnd)
        pollOption = try container.decodeIfPresent(String.self, forKey: .pollOption)
        group = try container.decodeIfPresent(MirrorFlexibleText.self, forKey: .group)?.value
        mood = try container.decodeIfPresent(String.self, forKey: .mood)
        include = try container.decodeIfPresent(String.self, forKey: .include)
        visibility = try container.decodeIfPresent(String.self, forKey: .visibility)
    }

    /// The feed: ``feedUrl``, else the part of ``uri`` before `#`.
    public var feedURL: String {
        feedUrl ?? String(uri.prefix { $0 != "#" })
    }

    /// The ID: ``id``, else the part of ``uri`` after `#` (empty when there is none).
    public var postID: String {
        if let id { return id }
        guard let hash = uri.firstIndex(of: "#") else { return "" }
        return String(uri[uri.index(after: hash)...])
    }

    /// `<feed URL>#<ID>`, composed again from ``feedURL`` and ``postID``.
    public var url: String { "\(feedURL)#\(postID)" }

    /// The post as this client's model, read from its Org text and properties with the Org Social parser.
    public var post: Post? {
        let id = postID
        guard !id.isEmpty, !id.contains(where: \.isNewline) else { return nil }
        var draft = PostDraft(body: content ?? "", client: client)
        draft.language = lang
        draft.tags = tags ?? []
        draft.replyTo = replyTo.flatMap(PostReference.init(parsing:))
        draft.include = include.flatMap(PostReference.init(parsing:))
        draft.pollEnd = pollEnd
        draft.pollOption = pollOption
        if let group {
            if let reference = GroupReference(parsing: group) {
                draft.group = reference
            } else {
                draft.extraProperties.append(Property(name: "GROUP", value: group))
            }
        }
        draft.visibility = visibility.map(Visibility.init(rawValue:))
        draft.mood = mood
        return OrgSocialParser().parse("* Posts\n" + draft.render(id: id)).posts.first
    }

    /// The author as a timeline shows it (the mirror's nick and avatar; no title).
    public var timelineAuthor: TimelineAuthor {
        TimelineAuthor(nick: author?.nick, title: nil, avatar: author?.avatar, feedURL: feedURL)
    }

    /// The post as a timeline entry; `nil` when its ID is not a valid timestamp.
    public var entry: TimelinePost? {
        post.flatMap { TimelinePost(post: $0, author: timelineAuthor) }
    }

    /// The post as the entry of a post asked for by its URL (a thread's, a notification's): its ID need only
    /// be readable leniently (``TimelinePost/init(lookingUp:author:)``).
    public var lookedUpEntry: TimelinePost? {
        post.flatMap { TimelinePost(lookingUp: $0, author: timelineAuthor) }
    }
}

/// A post's thread as a mirror sends it (`thread/`): the tree from the oldest ancestor it knows, and the
/// post the answer is about.
public struct MirrorThread: Sendable, Hashable, Decodable {
    /// One node: a post and the replies below it.
    public struct Node: Sendable, Hashable, Decodable {
        /// The post.
        public var post: MirrorPost
        /// Its replies, each a node.
        public var replies: [Node]

        private enum CodingKeys: String, CodingKey { case post, replies }

        /// Decodes a node; `post` is required.
        /// - Parameter decoder: the decoder.
        /// - Throws: `DecodingError`.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            post = try container.decode(MirrorPost.self, forKey: .post)
            replies = try container.decodeIfPresent([Node].self, forKey: .replies) ?? []
        }

        init(post: MirrorPost) {
            self.post = post
            replies = []
        }
    }

    /// The post the answer is about (`focus`), if the mirror said.
    public var focus: String?
    /// The tree (`thread`, else `root` alone).
    public var tree: Node

    private enum CodingKeys: String, CodingKey { case focus, root, thread }

    /// Decodes a thread: `thread` or `root` is required.
    /// - Parameter decoder: the decoder.
    /// - Throws: `DecodingError` when both are missing.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        focus = try container.decodeIfPresent(String.self, forKey: .focus)
        let root = try container.decodeIfPresent(MirrorPost.self, forKey: .root)
        if let thread = try container.decodeIfPresent(Node.self, forKey: .thread) {
            tree = thread
        } else if let root {
            tree = Node(post: root)
        } else {
            throw DecodingError.keyNotFound(
                CodingKeys.thread,
                .init(codingPath: decoder.codingPath, debugDescription: "a thread needs \"thread\" or \"root\""))
        }
    }

    /// The ancestors (oldest first) and the node of the post asked for: ``focus`` (else `postURL`) found in
    /// the tree, else the tree's root, as the official engine picks it.
    /// - Parameter postURL: the post asked for.
    /// - Returns: The parents and the focal node.
    public func focal(asking postURL: String) -> (parents: [MirrorPost], node: Node) {
        let target = focus ?? postURL
        func search(_ node: Node, path: [MirrorPost]) -> ([MirrorPost], Node)? {
            if node.post.url == target || node.post.uri == target { return (path, node) }
            for reply in node.replies {
                if let found = search(reply, path: path + [node.post]) { return found }
            }
            return nil
        }
        return search(tree, path: []) ?? ([], tree)
    }
}

/// A notification as a mirror sends it (`notifications/`): what happened and the post that did it.
public struct MirrorNotification: Sendable, Hashable, Decodable {
    /// `mention`, `reaction`, `reply` or `boost`.
    public var type: RelayNotificationType
    /// The post that caused it, whole.
    public var post: MirrorPost
}

/// A group as a mirror lists it (`groups/`).
public struct MirrorGroup: Sendable, Hashable, Decodable {
    /// Its name.
    public var name: String
    /// The slug of `groups/<slug>/`; the name lower-cased when the mirror gives none.
    public var slug: String
    /// The relay the group lives on, if given.
    public var relay: String?
    /// How many posts it has, if given.
    public var count: Int?

    private enum CodingKeys: String, CodingKey { case name, slug, relay, count }

    /// Decodes a group; `name` is required.
    /// - Parameter decoder: the decoder.
    /// - Throws: `DecodingError`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        slug = try container.decodeIfPresent(String.self, forKey: .slug) ?? name.lowercased()
        relay = try container.decodeIfPresent(String.self, forKey: .relay)
        count = try container.decodeIfPresent(Int.self, forKey: .count)
    }
}

/// A feed's profile as a mirror sends it (`profile/`).
public struct MirrorProfile: Sendable, Hashable, Decodable {
    /// One followed feed.
    public struct Follow: Sendable, Hashable, Decodable {
        /// The nickname of the follow line, if any.
        public var name: String?
        /// The followed feed.
        public var url: String?
    }

    /// The feed.
    public var url: String?
    /// `#+TITLE:`.
    public var title: String?
    /// `#+NICK:`.
    public var nick: String?
    /// `#+DESCRIPTION:`.
    public var description: String?
    /// `#+AVATAR:`.
    public var avatar: String?
    /// `#+LOCATION:`.
    public var location: String?
    /// `#+BIRTHDAY:`.
    public var birthday: String?
    /// `#+PINNED:`.
    public var pinned: String?
    /// `#+LINK:` values.
    public var links: [String]
    /// `#+LANGUAGE:` values.
    public var languages: [String]
    /// `#+CONTACT:` values.
    public var contacts: [String]
    /// `#+FOLLOW:` lines (those without a URL are left out).
    public var follows: [Follow]
    /// How many posts with text it has, if the mirror said.
    public var postCount: Int?
    /// How many feeds follow it, as the mirror knows, if it said.
    public var followerCount: Int?
    /// How many feeds it follows, if the mirror said.
    public var followingCount: Int?

    /// Whether the profile is that of a feed the mirror has read: it has a title, a nick or posts (a mirror
    /// may know a feed's URL from another feed's `#+FOLLOW:` line only).
    public var describesAFeedRead: Bool {
        title != nil || nick != nil || (postCount ?? 0) > 0
    }

    private enum CodingKeys: String, CodingKey {
        case url, title, nick, description, avatar, location, birthday, pinned, links, languages, contacts
        case follows, postCount, followerCount, followingCount
    }

    /// Decodes a profile; every key is optional.
    /// - Parameter decoder: the decoder.
    /// - Throws: `DecodingError` for a known key of the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        url = try container.decodeIfPresent(String.self, forKey: .url)
        title = try container.decodeIfPresent(String.self, forKey: .title)
        nick = try container.decodeIfPresent(String.self, forKey: .nick)
        description = try container.decodeIfPresent(String.self, forKey: .description)
        avatar = try container.decodeIfPresent(String.self, forKey: .avatar)
        location = try container.decodeIfPresent(String.self, forKey: .location)
        birthday = try container.decodeIfPresent(String.self, forKey: .birthday)
        pinned = try container.decodeIfPresent(String.self, forKey: .pinned)
        links = try container.decodeIfPresent([String].self, forKey: .links) ?? []
        languages = try container.decodeIfPresent([String].self, forKey: .languages) ?? []
        contacts = try container.decodeIfPresent([String].self, forKey: .contacts) ?? []
        follows = (try container.decodeIfPresent([Follow].self, forKey: .follows) ?? []).filter { $0.url != nil }
        postCount = try container.decodeIfPresent(Int.self, forKey: .postCount)
        followerCount = try container.decodeIfPresent(Int.self, forKey: .followerCount)
        followingCount = try container.decodeIfPresent(Int.self, forKey: .followingCount)
    }
}

/// Which posts `posts/` lists.
public enum MirrorPostScope: Sendable, Hashable {
    /// Every post the mirror holds (`scope=all`).
    case all
    /// The posts of these feeds (repeated `following=`).
    case following([String])
}
