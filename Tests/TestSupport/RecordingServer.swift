import Foundation
import HTTPCore
package import HTTPServer

/// A server on 127.0.0.1 that answers every `POST` with one status (200 `{}` unless told otherwise) and
/// records it: a stand-in for a mirror's webhook or a relay's registration, to check what a client told
/// them.
package final class RecordingServer: StoppableServer {
    /// The requests and the status to answer.
    package actor Log {
        /// Every `POST`, in order.
        package private(set) var requests: [RecordedRequest] = []
        /// The status every `POST` gets.
        package private(set) var status = 200
        /// The JSON body every `POST` gets.
        package private(set) var body = "{}"

        /// Makes every later `POST` get `status` and `body`.
        package func answer(_ status: Int, body: String = "{}") {
            self.status = status
            self.body = body
        }

        fileprivate func record(_ request: HTTPRequest) -> (status: Int, body: String) {
            requests.append(
                RecordedRequest(
                    method: request.method.rawValue, path: request.path, headers: request.headers, body: request.body))
            return (status, body)
        }

        /// The JSON bodies of the `POST`s to `path`, as string dictionaries.
        package func bodies(at path: String) -> [[String: String]] {
            requests.filter { $0.path == path }.compactMap {
                (try? JSONSerialization.jsonObject(with: Data($0.body))) as? [String: String]
            }
        }
    }

    /// The daemon.
    package let daemon: HTTPDaemon
    /// What it recorded.
    package let log: Log

    /// Starts a server.
    /// - Throws: `HTTPServerError` when it cannot start.
    package init() throws {
        let log = Log()
        self.log = log
        var router = Router()
        router.post("/*") { request in
            let (status, body) = await log.record(request)
            return HTTPResponse(
                status: HTTPStatus(code: status), headers: ["Content-Type": "application/json"], bytes: Array(body.utf8)
            )
        }
        daemon = try HTTPDaemon(configuration: .init(host: "127.0.0.1", port: 0), responder: router)
    }

    /// `http://127.0.0.1:<port><path>`.
    package func url(_ path: String) -> String { "http://127.0.0.1:\(daemon.port)\(path)" }

    /// Stops the server.
    package func stop() async { await daemon.stop(gracePeriod: .seconds(2)) }
}
