import Foundation
import HTTPServer
import RelayCore
import SQLiteStore

/// `GET /groups/` and `GET /groups/{slug}/` (`relay-api.md` §2.12).
extension RelayQueries {
    /// The configured groups, or a 404 with `data: []` when there are none.
    func groupList() -> RelayJSONReply {
        guard !groups.isEmpty else {
            return RelayEnvelope.error("No groups configured in this relay", status: .notFound, data: .array([]))
        }
        let links: [JSONValue] = groups.map { group in
            .object([
                ("name", .string(group.name)), ("href", .string("/groups/\(group.slug)/")), ("method", .string("GET")),
            ])
        }
        return RelayEnvelope.success(
            RelayEnvelope.strings(groups.map(\.name)),
            links: [("self", RelayEnvelope.link("/groups/")), ("groups", .array(links))])
    }

    /// A group's messages as a newest-first tree of `{post, children}`, with its members.
    func groupMessages(slug: String) throws -> RelayJSONReply {
        guard let group = groups.first(where: { $0.slug == slug }) else {
            return RelayEnvelope.error(
                "Group '\(slug)' does not exist", status: .notFound, data: .array([]), meta: [])
        }
        let rows = try db.query(
            sql: """
                SELECT p.url, p.reply_to FROM posts p WHERE p.group_slug = ?
                ORDER BY \(Self.newestFirst)
                """,
            arguments: [slug])
        var posts: [(url: String, replyTo: String?)] = []
        for row in rows { posts.append((try row.value(at: 0), try row.value(at: 1))) }
        let inGroup = Set(posts.map(\.url))
        var children: [String: [String]] = [:]
        var roots: [String] = []
        for post in posts {
            if let parent = post.replyTo, inGroup.contains(parent), parent != post.url {
                children[parent, default: []].append(post.url)
            } else {
                roots.append(post.url)
            }
        }
        var visited = Set<String>()
        func node(_ url: String) -> JSONValue {
            visited.insert(url)
            let kids = (children[url] ?? []).filter { !visited.contains($0) }.map(node)
            return .object([("post", .string(url)), ("children", .array(kids))])
        }
        let tree = roots.map(node)
        let members = try urls(
            db.query(
                sql: """
                    SELECT f.feed FROM profiles f
                    WHERE f.id IN (SELECT DISTINCT p.profile_id FROM posts p WHERE p.group_slug = ?)
                    ORDER BY f.updated_at DESC, f.feed
                    """,
                arguments: [slug]))
        return RelayEnvelope.success(
            .array(tree), meta: [("group", .string(group.name)), ("members", RelayEnvelope.strings(members))],
            links: [
                ("self", RelayEnvelope.link("/groups/\(slug)/")), ("group-list", RelayEnvelope.link("/groups/")),
            ])
    }
}
