/// Performs HTTP transfers with libcurl's multi interface: many at once on one thread that sleeps in
/// `curl_multi_poll` while it waits, connections kept and reused between transfers.
///
/// ```swift
/// let client = CurlClient()
/// let response = try await client.perform(CurlRequest(method: "GET", url: "https://example.org/social.org"))
/// ```
///
/// Bodies are decoded (gzip, deflate) by libcurl and counted as they arrive: past
/// ``CurlRequest/maximumBodyBytes`` the transfer stops at once with ``CurlError/bodyTooLarge(limit:)``
/// (or, with ``CurlRequest/truncatesBody``, with the first bytes as the body), whatever the transfer coding. Only http and https are allowed, redirects included. Cancelling the
/// calling task removes the transfer promptly and throws `CancellationError`.
package final class CurlClient: Sendable {
    private let loop = CurlMultiLoop()
    private let connectionFilter: (@Sendable ([UInt8]) -> Bool)?

    /// Makes a client; its thread starts with the first transfer and ends when the client is released.
    /// - Parameter connectionFilter: called on the loop's thread with the bytes of each address (4 for
    ///   IPv4, 16 for IPv6) before a connection is opened to it; returning `false` refuses the address,
    ///   and a transfer with no address left fails with ``CurlError/addressRefused(address:)``. Checking
    ///   at connect time covers redirects and closes DNS-rebinding races. `nil` allows every address.
    package init(connectionFilter: (@Sendable ([UInt8]) -> Bool)? = nil) {
        self.connectionFilter = connectionFilter
    }

    deinit {
        loop.stop()
    }

    /// Performs one transfer.
    /// - Parameter request: the request.
    /// - Returns: the final response (after followed redirects), whatever its status.
    /// - Throws: ``CurlError`` when no response arrives, or `CancellationError` when the task is cancelled.
    package func perform(_ request: CurlRequest) async throws -> CurlResponse {
        try await run(CurlTransfer(request, connectionFilter: connectionFilter))
    }

    /// Performs one transfer whose body is read as it arrives.
    ///
    /// The call returns once the final response's header is in (after followed redirects); the body's
    /// pieces then come through ``CurlStreamingResponse/body`` as libcurl decodes them, on the same
    /// thread and connections as buffered transfers, with nothing polled while the server is silent.
    /// ``CurlRequest/inactivityTimeout`` still applies: a body that goes silent for longer fails with
    /// ``CurlError/timedOut``. ``CurlRequest/maximumBodyBytes`` does not apply (the reader decides how
    /// much to take). Ending the iteration (a cancelled task, a `break`, the body dropped) removes the
    /// transfer at once. The body keeps the client alive while it is read.
    /// - Parameter request: the request.
    /// - Returns: the final response's status and header, with its body as a stream of pieces.
    /// - Throws: ``CurlError`` when no response arrives, or `CancellationError` when the task is cancelled
    ///   before the header is in. The body throws ``CurlError`` when the transfer fails midway.
    package func stream(_ request: CurlRequest) async throws -> CurlStreamingResponse {
        let (body, sink) = AsyncThrowingStream<[UInt8], any Error>.makeStream()
        let transfer = try CurlTransfer(request, connectionFilter: connectionFilter, bodySink: sink)
        sink.onTermination = { termination in
            // The reader went away before the body ended: stop the transfer. (After a normal end the loop
            // has removed it already, and a cancel finds nothing to do.) Holding `self` here keeps the
            // client, and so its loop, alive for as long as the body is being read.
            if case .cancelled = termination { self.loop.cancel(transfer) }
        }
        let head = try await run(transfer)
        return CurlStreamingResponse(status: head.status, headers: head.headers, url: head.url, body: body)
    }

    /// Hands `transfer` to the loop and waits for its response (a streaming transfer's header).
    private func run(_ transfer: CurlTransfer) async throws -> CurlResponse {
        let loop = self.loop
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                if transfer.attach(continuation) { loop.submit(transfer) }
            }
        } onCancel: {
            if transfer.noteCancellation() { loop.cancel(transfer) }
        }
    }
}
