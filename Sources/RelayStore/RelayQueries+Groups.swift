import Foundation
import RelayCore
import SQLiteStore

/// The messages of a group (`relay-api.md` §2.12).
extension RelayQueries {
    /// A group's messages as a newest-first tree, with its members; `nil` for a slug no group has.
    func messages(ofGroup slug: String) throws -> GroupMessages? {
        guard let group = groups.first(where: { $0.slug == slug }) else { return nil }
        let rows = try db.query(
            sql: """
                SELECT p.url, p.reply_to FROM posts p WHERE p.group_slug = ?
                ORDER BY \(Self.newestFirst)
                """,
            arguments: [slug])
        var posts: [(url: String, replyTo: String?)] = []
        for row in rows { posts.append((try row.value(at: 0), try row.value(at: 1))) }
        let threads = RelayListing.groupThreads(posts)
        let members = try urls(
            db.query(
                sql: """
                    SELECT f.feed FROM profiles f
                    WHERE f.id IN (SELECT DISTINCT p.profile_id FROM posts p WHERE p.group_slug = ?)
                    ORDER BY f.updated_at DESC, f.feed
                    """,
                arguments: [slug]))
        return GroupMessages(group: group, threads: threads, members: members)
    }
}
