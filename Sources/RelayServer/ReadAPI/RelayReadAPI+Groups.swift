import Foundation
import HTTPCore
import RelayCore

/// `GET /groups/` and `GET /groups/{slug}/` (`relay-api.md` §2.12).
extension RelayReadAPI {
    /// The configured groups, or a 404 with `data: []` when there are none.
    func groupList() async -> RelayJSONReply {
        let groups = await readModel.enabledGroups()
        guard !groups.isEmpty else {
            return RelayJSONEnvelope.error("No groups configured in this relay", status: .notFound, data: .array([]))
        }
        let links: [JSONValue] = groups.map { group in
            .object([
                ("name", .string(group.name)), ("href", .string("/groups/\(group.slug)/")), ("method", .string("GET")),
            ])
        }
        return RelayJSONEnvelope.success(
            RelayJSONEnvelope.strings(groups.map(\.name)),
            links: [("self", RelayJSONEnvelope.link("/groups/")), ("groups", .array(links))])
    }

    /// A group's messages as a newest-first tree of `{post, children}`, with its members.
    func groupMessages(slug: String) async throws -> RelayJSONReply {
        guard let messages = try await readModel.messages(ofGroup: slug) else {
            return RelayJSONEnvelope.error(
                "Group '\(slug)' does not exist", status: .notFound, data: .array([]), meta: [])
        }
        return RelayJSONEnvelope.success(
            .array(messages.threads.map(Self.node)),
            meta: [("group", .string(messages.group.name)), ("members", RelayJSONEnvelope.strings(messages.members))],
            links: [
                ("self", RelayJSONEnvelope.link("/groups/\(slug)/")),
                ("group-list", RelayJSONEnvelope.link("/groups/")),
            ])
    }

    /// One node of a group tree: `{post, children}`.
    static func node(_ thread: GroupThread) -> JSONValue {
        .object([("post", .string(thread.post)), ("children", .array(thread.replies.map(node)))])
    }
}
