import Foundation
import HTTPCore
import RelayCore

/// `GET /stats/` (`relay-api.md` §2.17).
extension RelayReadAPI {
    /// Monthly counters by UTC month of the post instant, and global totals.
    func stats(now: Date) async throws -> RelayJSONReply {
        let stats = try await readModel.stats()
        var years: [(String, [(String, JSONValue)])] = []
        for month in stats.months {
            let counters: [(String, JSONValue)] = [
                ("active_accounts", .int(month.activeAccounts)), ("total_posts", .int(month.totalPosts)),
                ("posts", .int(month.posts)), ("replies", .int(month.replies)), ("boosts", .int(month.boosts)),
                ("reactions", .int(month.reactions)), ("group_messages", .int(month.groupMessages)),
                ("polls", .int(month.polls)),
            ]
            if years.last?.0 == month.year {
                years[years.count - 1].1.append((month.month, .object(counters)))
            } else {
                years.append((month.year, [(month.month, .object(counters))]))
            }
        }
        let totals = stats.global
        let global: [(String, JSONValue)] = [
            ("registered_feeds", .int(totals.registeredFeeds)), ("total_accounts", .int(totals.totalAccounts)),
            ("total_posts", .int(totals.totalPosts)), ("total_follows", .int(totals.totalFollows)),
            ("active_groups", .int(totals.activeGroups)),
        ]
        return RelayJSONEnvelope.success(
            .object([("years", .object(years.map { ($0.0, .object($0.1)) })), ("global", .object(global))]),
            meta: [("generated_at", .string(RelayTimeFormat.isoformat(now)))],
            links: [("self", RelayJSONEnvelope.link("/stats/")), ("feeds", RelayJSONEnvelope.link("/feeds/"))])
    }
}
