import HTTPCore

extension HostAPI {
    /// `POST /upload`, `multipart/form-data` with a `vfile` field and a `file` part: replaces the
    /// account's feed.
    ///
    /// Checks run in the reference host's order (vfile, file present, size, redirect), then the body
    /// must be UTF-8 (`File must be UTF-8 text`, 400: the reference host fails with a server error
    /// there). Then the feed is validated exactly as `PUT` validates it
    /// (``FeedWriteHandler/contentProblems(_:)``): a file that does not parse as an Org Social feed
    /// without errors gets 422 with the diagnostics, and nothing is written (the reference host accepts
    /// any text). With an `If-Match` or `If-None-Match: *` header the upload gets `PUT`'s
    /// lost-update guard (412 with the current `ETag`); see ``HostAPI`` for what that does and does not
    /// cover.
    func upload(_ request: HTTPRequest) async -> HTTPResponse {
        let form = RequestForm(request)
        let account: HostAccount
        switch await authenticate(form.fields["vfile"], unknown: .invalidToken) {
        case .success(let found): account = found
        case .failure(let refusal): return refusal.response
        }
        guard let file = form.parts["file"] else {
            return Envelope.error("File is required", status: .badRequest)
        }
        guard file.bytes.count <= maximumUploadBytes else {
            return FeedWriteHandler.tooLarge(maximumUploadBytes)
        }
        guard account.redirectURL == nil else {
            return Envelope.error(
                "Cannot upload file while redirect is active. Remove redirect first.", status: .badRequest)
        }
        guard String(validating: file.bytes, as: UTF8.self) != nil else {
            return Envelope.error("File must be UTF-8 text", status: .badRequest)
        }
        if let problems = FeedWriteHandler.contentProblems(file.bytes) {
            return problems
        }
        guard let feed = account.feed else {
            return Envelope.error("File not found", status: .notFound)
        }
        let precondition = RequestPrecondition(request)
        return await store.withWriteLock(feed) {
            // The account may have been deleted or redirected while this request waited for the lock.
            guard let current = await accounts.account(tokenSHA256: account.tokenSHA256) else {
                return Envelope.error("Invalid vfile token", status: .unauthorized)
            }
            guard current.redirectURL == nil else {
                return Envelope.error(
                    "Cannot upload file while redirect is active. Remove redirect first.",
                    status: .badRequest
                )
            }
            do throws(FeedDirectory.AccessError) {
                if let refusal = precondition.refusal(current: try store.snapshot(of: feed)) {
                    return refusal
                }
                let saved = try store.replace(feed, with: file.bytes)
                return Envelope.success(
                    .object([
                        ("message", "File uploaded successfully"),
                        ("public-url", .string(publicURL(nick: account.nick))),
                        ("etag", .string(saved.entityTag)),
                    ]),
                    headers: ["ETag": saved.entityTag, "Last-Modified": saved.lastModified]
                )
            } catch {
                return FeedWriteHandler.storageFailure(error, feed: feed, log: log)
            }
        }
    }
}
