import Crypto
import HTTPCore

/// The Org Social Host API (spec §11): the same paths, JSON envelope, status codes and error strings as
/// the reference host, so that its clients (org-social.el, crosspost) can sign up and publish here.
///
/// Accounts are vfile capability URLs (``VFile``) signed with the node's ``HostSecret``; an account
/// `nick` owns the feed `<root>/<nick>/social.org`, which the node serves like any other feed (ETag,
/// conditional GET, ranges, gzip). Files go through the same ``FeedStore`` as `PUT`, so both paths
/// share the per-feed write lock and the cache.
///
/// ## The lost-update guard for vfile clients
///
/// The reference protocol carries no version information: a client re-downloads the public file,
/// edits it, and uploads the whole file, and the server cannot tell whether the upload was based on
/// the current version. So:
///
/// - **Protected, always:** every upload is received in full before anything is written and replaces
///   the file atomically, so a dropped connection or a crash never leaves a half-written feed; uploads,
///   PUTs, signups and deletes of one feed are serialised, so they never interleave.
/// - **Protected when the client opts in:** an upload that carries `If-Match: "<etag>"` (the `ETag`
///   of the public file it edited, an extension of this node) is refused with 412 and the current
///   `ETag` if the feed changed in between, exactly like `PUT`; `If-None-Match: *` is honoured too.
///   Successful uploads answer with the new `ETag`, as a header and as `data.etag`, so a client can chain
///   edits.
/// - **Not protected:** a client that sends no precondition, as org-social.el does today, gets the
///   reference behaviour, last writer wins: if two devices read the same version and both upload, the
///   second upload silently replaces the first one's changes. Re-downloading right before each upload
///   narrows that window but cannot close it; only `If-Match` (or `PUT`) does.
struct HostAPI: Sendable {
    let store: FeedStore
    let accounts: AccountStore
    /// The bearer tokens of `PUT`: deleting an account revokes its feed's, and a nick whose feed still
    /// has tokens is not handed out.
    let tokens: FeedTokenStore
    let secret: HostSecret
    let site: SiteAddress
    let maximumUploadBytes: Int
    let clock: @Sendable () -> Int
    let log: @Sendable (String) -> Void

    /// The site URL, as public URLs and vfiles start.
    var siteURL: String { site.url }

    /// The public URL of `nick`'s feed.
    func publicURL(nick: String) -> String {
        "\(siteURL)/\(FeedPath.percentEncoded(nick))/\(FeedPath.fileName)"
    }

    // MARK: - vfile authentication

    /// What to answer when a well-formed vfile names no account.
    enum UnknownTokenAnswer {
        /// 401 `Invalid vfile token` (upload).
        case invalidToken
        /// 404 `File not found` (redirect, remove-redirect).
        case fileNotFound
        /// 404 `File not found` if the token has the shape of an issued token, else 401 `Invalid vfile
        /// token` (delete).
        case byTokenShape
    }

    /// Checks a request's `vfile` field and returns its account, or the error response.
    ///
    /// In the reference host's order: missing (400 `vfile parameter is required`), malformed (401
    /// `Invalid vfile format`), unknown token (`unknown`), wrong signature (401 `Invalid vfile
    /// signature`).
    func authenticate(_ vfileText: String?, unknown: UnknownTokenAnswer) async -> Result<HostAccount, Refusal> {
        guard let vfileText, !vfileText.isEmpty else {
            return .failure(Refusal(Envelope.error("vfile parameter is required", status: .badRequest)))
        }
        guard let vfile = VFile(url: vfileText) else {
            return .failure(Refusal(Envelope.error("Invalid vfile format", status: .unauthorized)))
        }
        guard let account = await accounts.account(tokenSHA256: FeedTokenStore.hash(vfile.token)) else {
            switch unknown {
            case .invalidToken:
                return .failure(Refusal(Envelope.error("Invalid vfile token", status: .unauthorized)))
            case .fileNotFound:
                return .failure(Refusal(Envelope.error("File not found", status: .notFound)))
            case .byTokenShape:
                return .failure(
                    Refusal(
                        vfile.hasIssuedShape
                            ? Envelope.error("File not found", status: .notFound)
                            : Envelope.error("Invalid vfile token", status: .unauthorized)
                    ))
            }
        }
        let expected = secret.signature(token: vfile.token, timestamp: vfile.timestamp, nick: account.nick)
        guard ConstantTime.isEqual(Array(expected.utf8), Array(vfile.signature.utf8)) else {
            return .failure(Refusal(Envelope.error("Invalid vfile signature", status: .unauthorized)))
        }
        return .success(account)
    }

    /// An error response, as the failure of a check.
    struct Refusal: Error {
        let response: HTTPResponse

        init(_ response: HTTPResponse) {
            self.response = response
        }
    }

}
