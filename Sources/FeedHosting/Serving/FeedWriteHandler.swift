import Foundation
import HTTPCore
import OrgSocial

/// Answers `PUT` to a feed's own URL: the safe way to publish, with no lost updates.
///
/// The request must carry one of the feed's tokens (see ``FeedTokenStore``), either as
/// `Authorization: Bearer <token>` or, for WebDAV clients, as the password of HTTP Basic
/// (`Authorization: Basic base64(<any user name>:<token>)`), and a precondition: `If-Match: "<etag>"` with the ETag the client last read
/// (or `*`), or `If-None-Match: *` to create a feed that does not exist yet. The body is the whole new
/// file, which must be UTF-8 and parse as an Org Social feed without errors (warnings are fine).
///
/// | Outcome | Status |
/// |---|---|
/// | Saved; the response's `ETag` is the new version's | 200, or 201 when created |
/// | Missing or wrong token | 401 with `WWW-Authenticate: Bearer` (and `Basic` after a Basic attempt) |
/// | Not a feed path | 404 |
/// | The account has a redirect (Host API) | 409 |
/// | Body over the upload limit | 413 |
/// | `Content-Encoding` other than identity | 415 |
/// | No `If-Match` and no `If-None-Match: *` | 428 |
/// | Stale ETag; or the feed exists (`If-None-Match: *`) or does not (`If-Match`) | 412, current `ETag` |
/// | Not UTF-8, or the feed has errors | 422 with the diagnostics |
///
/// The precondition is checked and the file written while holding the feed's write lock, which every
/// writer of the feed takes (PUT, Host API upload, signup, delete), so of several PUTs sent with the
/// same `If-Match` exactly one wins and the others get 412. The body has been received in full before
/// any of this runs, and the file is replaced atomically (``AtomicFile``): a client or a server that
/// dies mid-upload leaves the old file as it was.
struct FeedWriteHandler: Sendable {
    let store: FeedStore
    let tokens: FeedTokenVerifier
    let accounts: AccountDirectory
    let maximumUploadBytes: Int
    let log: @Sendable (String) -> Void

    /// The refusal that needs only the request head: a missing or wrong token (401), an active
    /// redirect (409), or a declared `Content-Length` over the upload limit (413); `nil` when the body
    /// is worth reading. The node checks this before it reads a `PUT` body
    /// (``NodeResponder/respondBeforeBody(to:)``), so unauthenticated uploads cost no memory.
    ///
    /// The token must be one of the feed the write really lands in (``FeedDirectory/realFeed(of:)``): a
    /// token for `alias/social.org` does not write `ana/social.org` through a link `alias -> ana`, and no
    /// token writes through a link out of the root or into the state folder.
    func headRefusal(_ request: HTTPRequest, feed requested: FeedPath) -> HTTPResponse? {
        if case .failure(let refusal) = authorizedFeed(request, feed: requested) { return refusal.response }
        return nil
    }

    /// The feed the request may write (`requested` with its folder's links resolved), or the refusal
    /// of ``headRefusal(_:feed:)``.
    private func authorizedFeed(_ request: HTTPRequest, feed requested: FeedPath) -> Result<FeedPath, HostAPI.Refusal> {
        let feed = store.directory.realFeed(of: requested)
        guard let feed, let token = Self.presentedToken(request.headers["Authorization"]),
            tokens.isAuthorized(token, for: feed)
        else {
            let bearer =
                request.headers["Authorization"] == nil
                ? "Bearer realm=\"orgsocial\"" : "Bearer realm=\"orgsocial\", error=\"invalid_token\""
            return .failure(
                HostAPI.Refusal(
                    Envelope.error(
                        "A valid token for \(requested.relativePath) is required (Authorization: Bearer <token>, "
                            + "or Basic with the token as the password)",
                        status: .unauthorized,
                        headers: Self.challenges(bearer: bearer, answering: request.headers["Authorization"])
                    )))
        }
        if let nick = feed.folder, accounts.account(nick: nick)?.redirectURL != nil {
            return .failure(
                HostAPI.Refusal(
                    Envelope.error(
                        "Cannot upload file while redirect is active. Remove redirect first.",
                        status: .conflict
                    )))
        }
        if let declared = request.headers["Content-Length"].flatMap(Int.init), declared > maximumUploadBytes {
            return .failure(HostAPI.Refusal(Self.tooLarge(maximumUploadBytes)))
        }
        return .success(feed)
    }

    func respond(to request: HTTPRequest, feed requested: FeedPath) async -> HTTPResponse {
        // The token is checked again on the full request, against the feed the write lands in now.
        let feed: FeedPath
        switch authorizedFeed(request, feed: requested) {
        case .success(let authorized): feed = authorized
        case .failure(let refusal): return refusal.response
        }
        guard request.body.count <= maximumUploadBytes else {
            return Self.tooLarge(maximumUploadBytes)
        }
        if let coding = request.headers["Content-Encoding"], coding.trimmingSpaces().lowercased() != "identity" {
            return Envelope.error(
                "Content-Encoding '\(coding)' is not supported; send the feed uncompressed",
                status: .unsupportedMediaType
            )
        }
        let precondition = RequestPrecondition(request)
        guard precondition != .none else {
            return Envelope.error(
                "Precondition Required: send If-Match with the ETag you last read, or If-None-Match: * to "
                    + "create the feed",
                status: .preconditionRequired
            )
        }
        // Check the content before taking the lock (parsing a large feed takes a while), but report a
        // failed precondition first, as RFC 9110 orders them.
        let problems = Self.contentProblems(request.body)
        return await store.withWriteLock(feed) {
            let current: FeedSnapshot?
            do throws(FeedDirectory.AccessError) {
                current = try store.snapshot(of: feed)
            } catch {
                return Self.storageFailure(error, feed: feed, log: log)
            }
            if let refusal = precondition.refusal(current: current) {
                return refusal
            }
            if let problems {
                return problems
            }
            do throws(FeedDirectory.AccessError) {
                let saved = try store.replace(feed, with: request.body)
                return Envelope.success(
                    .object([
                        ("message", current == nil ? "Feed created" : "Feed saved"),
                        ("etag", .string(saved.entityTag)), ("size", .int(saved.bytes.count)),
                    ]),
                    status: current == nil ? .created : .ok,
                    headers: ["ETag": saved.entityTag, "Last-Modified": saved.lastModified]
                )
            } catch {
                return Self.storageFailure(error, feed: feed, log: log)
            }
        }
    }

    /// 413 with the Host API's message.
    static func tooLarge(_ maximumUploadBytes: Int) -> HTTPResponse {
        Envelope.error("File too large. Maximum size is \(maximumUploadBytes) bytes", status: .contentTooLarge)
    }

    /// The `WWW-Authenticate` fields of a 401: Bearer, and Basic too when the request tried Basic. Basic is
    /// not offered to the others, because Foundation's URLSession on Linux then waits on the challenge
    /// forever instead of returning the 401 to its caller.
    static func challenges(bearer: String, answering authorization: String?) -> HTTPHeaders {
        let triedBasic = authorization?.trimmingSpaces().lowercased().hasPrefix("basic") ?? false
        return triedBasic
            ? HTTPHeaders([("WWW-Authenticate", bearer), ("WWW-Authenticate", "Basic realm=\"orgsocial\"")])
            : HTTPHeaders([("WWW-Authenticate", bearer)])
    }

    /// The token an `Authorization` header presents: the credentials of `Bearer <token>`, or the
    /// password of `Basic base64(<user>:<password>)` (RFC 7617: the user name, which may be empty, is
    /// ignored, and the password is everything after the first colon). `nil` for a missing header,
    /// another scheme, an empty token, or Basic credentials that are not base64 of UTF-8 text with a
    /// colon. The scheme is compared case-insensitively.
    static func presentedToken(_ header: String?) -> String? {
        guard let header else { return nil }
        let parts = header.trimmingSpaces().split(separator: " ", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        let credentials = String(parts[1]).trimmingSpaces()
        let token: String
        switch parts[0].lowercased() {
        case "bearer":
            token = credentials
        case "basic":
            guard let decoded = Data(base64Encoded: credentials),
                let pair = String(validating: Array(decoded), as: UTF8.self),
                let colon = pair.firstIndex(of: ":")
            else { return nil }
            token = String(pair[pair.index(after: colon)...])
        default:
            return nil
        }
        return token.isEmpty ? nil : token
    }

    /// The 422 response for a body that is not UTF-8 or does not parse as a feed without errors, or `nil`
    /// when the body is acceptable.
    static func contentProblems(_ body: [UInt8]) -> HTTPResponse? {
        guard String(validating: body, as: UTF8.self) != nil else {
            return Envelope.error(
                "The feed is not valid UTF-8 text",
                status: .unprocessableContent,
                data: .object([("diagnostics", .array([]))])
            )
        }
        let diagnostics = FeedValidator().validate(OrgSocialParser().parse(bytes: body))
        // Summaries stand for the diagnostics they leave out, so the count is the real one.
        let errors = diagnostics.lazy.filter { $0.severity == .error }.map(\.problemCount).reduce(0, +)
        guard errors > 0 else { return nil }
        return Envelope.error(
            "The feed has \(errors) error\(errors == 1 ? "" : "s"); nothing was written",
            status: .unprocessableContent,
            data: .object([("diagnostics", .array(diagnostics.map(\.json)))])
        )
    }

    static func storageFailure(
        _ error: FeedDirectory.AccessError,
        feed: FeedPath,
        log: @Sendable (String) -> Void
    ) -> HTTPResponse {
        switch error {
        case .notServable(let reason):
            log("Refusing to write \(feed.relativePath): \(reason).")
            return Envelope.error("File not found", status: .notFound)
        case .system(let failure):
            log("Cannot write \(feed.relativePath): \(failure).")
            return Envelope.error("Internal server error", status: .internalServerError)
        }
    }
}

extension Diagnostic {
    /// The diagnostic as a JSON object: severity, line, column, code, message, suggestion.
    var json: JSONValue {
        .object([
            ("severity", .string(severity.rawValue)), ("line", .int(line)), ("column", .int(column)),
            ("code", .string(code.rawValue)), ("message", .string(message)),
            ("suggestion", .string(orNull: suggestion)),
        ])
    }
}
