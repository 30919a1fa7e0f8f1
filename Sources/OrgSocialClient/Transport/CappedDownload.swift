import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Downloads that stop as soon as the body passes a size limit, so a huge file is never read in full:
/// the delegate of one long-lived session, which keeps per-task state (the limit, the bytes so far, the
/// continuation), counts the bytes and cancels a task that goes over.
///
/// One session serves every capped download of a transport, so connections are kept alive and reused
/// (a session per download cost a new connection, and on Linux a new curl handle and thread, each time:
/// about 4 ms per feed).
///
/// `URLSessionDataDelegate` only offers completion-handler callbacks on Linux; they are Foundation's
/// API, bridged here to one `async` call per task with a checked continuation resumed exactly once.
final class CappedDownload: NSObject, URLSessionDataDelegate, Sendable {
    private typealias Continuation = CheckedContinuation<(Data, URLResponse), any Error>

    /// What one task has received so far, and how it may go on.
    private struct TaskState {
        var continuation: Continuation?
        var data = Data()
        var response: URLResponse?
        let limit: Int
        let followsRedirects: Bool
        let url: String
    }

    private let tasks = Mutex([Int: TaskState]())

    /// Makes a session whose capped downloads go through a new delegate.
    /// - Parameter configuration: the session configuration.
    /// - Returns: the session and its delegate; invalidate the session when done with it.
    static func makeSession(configuration: URLSessionConfiguration) -> (URLSession, CappedDownload) {
        let downloads = CappedDownload()
        return (URLSession(configuration: configuration, delegate: downloads, delegateQueue: nil), downloads)
    }

    /// Runs one request on `session` (made by ``makeSession(configuration:)``), failing with
    /// ``OrgSocialClientError/feedTooLarge(url:limit:)`` as soon as the body passes `limit` bytes.
    /// - Parameters:
    ///   - request: the request.
    ///   - session: the session this delegate serves.
    ///   - followsRedirects: whether redirects are followed (else the redirect itself is returned).
    ///   - limit: the largest body accepted.
    /// - Returns: the body and the response.
    /// - Throws: the session's error, or ``OrgSocialClientError/feedTooLarge(url:limit:)``.
    func run(
        _ request: URLRequest, on session: URLSession, followsRedirects: Bool, limit: Int
    ) async throws -> (Data, URLResponse) {
        let task = session.dataTask(with: request)
        let identifier = task.taskIdentifier
        let url = request.url?.absoluteString ?? ""
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                tasks.withLock {
                    $0[identifier] = TaskState(
                        continuation: continuation, limit: limit, followsRedirects: followsRedirects, url: url)
                }
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
        let stopped = tasks.withLock { tasks -> TaskState? in
            guard var state = tasks[dataTask.taskIdentifier] else { return nil }
            guard response.expectedContentLength <= Int64(state.limit) else {
                return tasks.removeValue(forKey: dataTask.taskIdentifier)
            }
            state.response = response
            tasks[dataTask.taskIdentifier] = state
            return nil
        }
        guard let stopped else {
            completionHandler(.allow)
            return
        }
        completionHandler(.cancel)
        stop(dataTask, stopped)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let stopped = tasks.withLock { tasks -> TaskState? in
            guard var state = tasks[dataTask.taskIdentifier] else { return nil }
            state.data.append(data)
            guard state.data.count <= state.limit else { return tasks.removeValue(forKey: dataTask.taskIdentifier) }
            tasks[dataTask.taskIdentifier] = state
            return nil
        }
        if let stopped { stop(dataTask, stopped) }
    }

    /// Ends a download that went over its limit: fails its call at once (a shared session may report
    /// the cancelled task late) and cancels the task. Its state is already removed, so the completion
    /// callback, whenever it comes, finds nothing to resume.
    private func stop(_ task: URLSessionTask, _ state: TaskState) {
        state.continuation?.resume(throwing: OrgSocialClientError.feedTooLarge(url: state.url, limit: state.limit))
        task.cancel()
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        let follows = tasks.withLock { $0[task.taskIdentifier]?.followsRedirects ?? true }
        completionHandler(follows ? request : nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        typealias Outcome = Result<(Data, URLResponse), any Error>
        let (continuation, outcome) = tasks.withLock { tasks -> (Continuation?, Outcome) in
            guard let state = tasks.removeValue(forKey: task.taskIdentifier) else {
                return (nil, .failure(URLError(.unknown)))
            }
            if let error { return (state.continuation, .failure(error)) }
            guard let response = state.response ?? task.response else {
                return (state.continuation, .failure(URLError(.badServerResponse)))
            }
            return (state.continuation, .success((state.data, response)))
        }
        continuation?.resume(with: outcome)
    }
}
