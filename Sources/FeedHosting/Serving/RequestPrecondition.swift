import HTTPCore

/// The precondition a write request carries (what the node checks; the client's side is
/// `OrgSocialClient.WritePrecondition`): `If-Match`, `If-None-Match: *`, or nothing.
enum RequestPrecondition: Equatable {
    /// No usable precondition.
    case none
    /// `If-Match`: the current version must have one of these tags (or exist, for `*`).
    case ifMatch(EntityTagCondition)
    /// `If-None-Match: *`: the feed must not exist yet.
    case ifNoneMatchAny

    /// Reads the precondition headers of `request`; `If-Match` wins when both are sent.
    init(_ request: HTTPRequest) {
        if let condition = EntityTagCondition(fieldValues: request.headers.values(for: "If-Match")) {
            self = .ifMatch(condition)
        } else if EntityTagCondition(fieldValues: request.headers.values(for: "If-None-Match")) == .any {
            self = .ifNoneMatchAny
        } else {
            self = .none
        }
    }

    /// The 412 response if the precondition fails against `current`, else `nil`.
    ///
    /// `If-Match` compares strongly with the identity tag and accepts the gzip tag too: a client that
    /// read the gzip representation holds the same content.
    func refusal(current: FeedSnapshot?) -> HTTPResponse? {
        switch self {
        case .none:
            return nil
        case .ifMatch(let condition):
            guard let current else {
                return Envelope.error(
                    "Precondition Failed: the feed does not exist; create it with If-None-Match: *",
                    status: .preconditionFailed,
                    data: .object([("etag", .null)])
                )
            }
            guard condition.strongMatch(in: [current.entityTag, current.gzipEntityTag]) else {
                return Self.stale(current)
            }
            return nil
        case .ifNoneMatchAny:
            guard let current else { return nil }
            return Self.stale(current)
        }
    }

    private static func stale(_ current: FeedSnapshot) -> HTTPResponse {
        Envelope.error(
            "Precondition Failed: the feed has changed; its current ETag is \(current.entityTag)",
            status: .preconditionFailed,
            data: .object([("etag", .string(current.entityTag))]),
            headers: ["ETag": current.entityTag]
        )
    }
}
