import Foundation
import HTTPCore
import RelayCore

/// The endpoints keyed by a feed: `/mentions/`, `/notifications/`, `/reactions/`, `/replies-to/`,
/// `/profile/` (`relay-api.md` §2.4–2.7, §2.15).
extension RelayReadAPI {
    /// The message of a feed without a profile.
    static let profileNotFound = "Profile not found for the given feed URL"

    /// `GET /mentions/?feed=`.
    func mentions(_ parameters: RelayParameters) async throws -> RelayJSONReply {
        let feed = try requireFeed(parameters)
        guard let list = try await readModel.mentions(of: feed) else { return notFound(Self.profileNotFound) }
        return RelayJSONEnvelope.success(
            RelayJSONEnvelope.strings(list), meta: [("feed", .string(feed)), ("total", .int(list.count))],
            links: [selfLink("/mentions/", "feed", feed)])
    }

    /// `GET /notifications/?feed=[&type=]`: the four lists merged, newest first, ties in type order.
    func notifications(_ parameters: RelayParameters) async throws -> RelayJSONReply {
        let feed = try requireFeed(parameters)
        let type = parameters.stripped("type")?.lowercased() ?? ""
        let kinds = InteractionNotice.Kind.allCases
        guard type.isEmpty || kinds.contains(where: { $0.rawValue == type }) else {
            return RelayJSONEnvelope.error(
                "Invalid type parameter. Must be one of: mention, reaction, reply, boost", status: .badRequest)
        }
        let wanted = Set(kinds.filter { type.isEmpty || type == $0.rawValue })
        guard let list = try await readModel.notifications(of: feed, kinds: wanted) else {
            return notFound(Self.profileNotFound)
        }
        let items: [JSONValue] = list.notices.map(Self.notificationItem)
        let counts = list.counts
        let byType: [(String, JSONValue)] = [
            ("mentions", .int(counts[.mention] ?? 0)), ("reactions", .int(counts[.reaction] ?? 0)),
            ("replies", .int(counts[.reply] ?? 0)), ("boosts", .int(counts[.boost] ?? 0)),
        ]
        let encoded = RelayPercentEncoding.encode(feed)
        return RelayJSONEnvelope.success(
            .array(items),
            meta: [("feed", .string(feed)), ("total", .int(items.count)), ("by_type", .object(byType))],
            links: [
                ("self", RelayJSONEnvelope.link("/notifications/?feed=\(encoded)")),
                ("mentions", RelayJSONEnvelope.link("/mentions/?feed=\(encoded)")),
                ("reactions", RelayJSONEnvelope.link("/reactions/?feed=\(encoded)")),
                ("replies-to", RelayJSONEnvelope.link("/replies-to/?feed=\(encoded)")),
            ])
    }

    /// One item of `/notifications/`: `type`, `post`, then the kind's own keys.
    static func notificationItem(_ notice: InteractionNotice) -> JSONValue {
        var members: [(String, JSONValue)] = [("type", .string(notice.kind.rawValue)), ("post", .string(notice.post))]
        switch notice.kind {
        case .mention:
            break
        case .reaction:
            members += [("emoji", .string(notice.emoji ?? "")), ("parent", .string(notice.parent ?? ""))]
        case .reply:
            members.append(("parent", .string(notice.parent ?? "")))
        case .boost:
            members.append(("boosted", .string(notice.boosted ?? "")))
        }
        return .object(members)
    }

    /// `GET /reactions/?feed=`: moods on the feed's posts, poll votes left out.
    func reactions(_ parameters: RelayParameters) async throws -> RelayJSONReply {
        let feed = try requireFeed(parameters)
        guard let rows = try await readModel.reactions(to: feed) else { return notFound(Self.profileNotFound) }
        let data: [JSONValue] = rows.map { row in
            .object([("post", .string(row.post)), ("emoji", .string(row.emoji)), ("parent", .string(row.parent))])
        }
        return RelayJSONEnvelope.success(
            .array(data), meta: [("feed", .string(feed)), ("total", .int(data.count))],
            links: [selfLink("/reactions/", "feed", feed)])
    }

    /// `GET /replies-to/?feed=`: direct replies without a mood to the feed's posts, poll votes left out.
    func repliesTo(_ parameters: RelayParameters) async throws -> RelayJSONReply {
        let feed = try requireFeed(parameters)
        guard let rows = try await readModel.replies(to: feed) else { return notFound(Self.profileNotFound) }
        let data: [JSONValue] = rows.map { row in
            .object([("post", .string(row.post)), ("parent", .string(row.parent))])
        }
        return RelayJSONEnvelope.success(
            .array(data), meta: [("feed", .string(feed)), ("total", .int(data.count))],
            links: [selfLink("/replies-to/", "feed", feed)])
    }

    /// `GET /profile/?feed=`: followers (feed URL ascending).
    func profile(_ parameters: RelayParameters) async throws -> RelayJSONReply {
        let feed = try requireFeed(parameters)
        guard let followers = try await readModel.followers(of: feed) else { return notFound(Self.profileNotFound) }
        return RelayJSONEnvelope.success(
            .object([("feed", .string(feed)), ("followers", RelayJSONEnvelope.strings(followers))]),
            meta: [("feed", .string(feed)), ("total_followers", .int(followers.count))],
            links: [selfLink("/profile/", "feed", feed)])
    }
}
