import HTTPClient

extension HTTPTransport {
    /// Sends `request` like ``HTTPTransport/send(_:)``, with the transport's failures as this module's
    /// errors, so callers of the Org Social client see one error type.
    /// - Parameter request: the request.
    /// - Returns: the response, whatever its status.
    /// - Throws: ``OrgSocialClientError/networkError(url:message:)`` or
    ///   ``OrgSocialClientError/feedTooLarge(url:limit:)``; `CancellationError` when cancelled.
    func exchange(_ request: HTTPClientRequest) async throws -> HTTPClientResponse {
        do {
            return try await send(request)
        } catch let error as HTTPClientError {
            throw OrgSocialClientError(error)
        }
    }
}

extension OrgSocialClientError {
    /// The client error for a transport failure.
    /// - Parameter error: what the transport threw.
    init(_ error: HTTPClientError) {
        switch error {
        case .networkError(let url, let message): self = .networkError(url: url, message: message)
        case .bodyTooLarge(let url, let limit): self = .feedTooLarge(url: url, limit: limit)
        }
    }
}
