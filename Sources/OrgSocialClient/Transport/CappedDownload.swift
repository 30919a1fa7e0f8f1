import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One download that stops as soon as the body passes a size limit, so a huge file is never read in
/// full: a data task on its own session whose delegate counts the bytes and cancels the task.
///
/// `URLSessionDataDelegate` only offers completion-handler callbacks on Linux; they are Foundation's
/// API, bridged here to one `async` call with a checked continuation that is resumed exactly once.
final class CappedDownload: NSObject, URLSessionDataDelegate, Sendable {
    private typealias Continuation = CheckedContinuation<(Data, URLResponse), any Error>

    private struct State {
        var continuation: Continuation?
        var data = Data()
        var response: URLResponse?
        var failure: (any Error)?
    }

    private let limit: Int
    private let followsRedirects: Bool
    private let url: String
    private let state = Mutex(State())

    private init(limit: Int, followsRedirects: Bool, url: String) {
        self.limit = limit
        self.followsRedirects = followsRedirects
        self.url = url
    }

    /// Runs `request` and returns the body and response, or throws
    /// ``OrgSocialClientError/feedTooLarge(url:limit:)`` as soon as the body passes `limit` bytes.
    static func run(
        _ request: URLRequest, configuration: URLSessionConfiguration, followsRedirects: Bool, limit: Int
    ) async throws -> (Data, URLResponse) {
        let download = CappedDownload(
            limit: limit, followsRedirects: followsRedirects, url: request.url?.absoluteString ?? "")
        let session = URLSession(configuration: configuration, delegate: download, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let task = session.dataTask(with: request)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                download.state.withLock { $0.continuation = continuation }
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let tooLarge = response.expectedContentLength > Int64(limit)
        state.withLock { state in
            state.response = response
            if tooLarge { state.failure = OrgSocialClientError.feedTooLarge(url: url, limit: limit) }
        }
        completionHandler(tooLarge ? .cancel : .allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let tooLarge = state.withLock { state in
            state.data.append(data)
            guard state.data.count > limit, state.failure == nil else { return false }
            state.failure = OrgSocialClientError.feedTooLarge(url: url, limit: limit)
            return true
        }
        if tooLarge { dataTask.cancel() }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(followsRedirects ? request : nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        typealias Outcome = Result<(Data, URLResponse), any Error>
        let (continuation, outcome) = state.withLock { state -> (Continuation?, Outcome) in
            let continuation = state.continuation
            state.continuation = nil
            if let failure = state.failure { return (continuation, .failure(failure)) }
            if let error { return (continuation, .failure(error)) }
            guard let response = state.response ?? task.response else {
                return (continuation, .failure(URLError(.badServerResponse)))
            }
            return (continuation, .success((state.data, response)))
        }
        continuation?.resume(with: outcome)
    }
}
