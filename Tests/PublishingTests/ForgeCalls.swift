import Foundation
import HTTPClient
import HTTPCore
import TestSupport

/// Real requests to a ``FakeForge`` over our curl transport, as the publishing client will send them.
struct ForgeCalls: Sendable {
    let forge: FakeForge
    let transport = CurlTransport(timeout: .seconds(10))

    /// `GET …/contents/{path}` (with `?ref=` when `ref` is given).
    func get(
        _ owner: String, _ repo: String, _ path: String, ref: String? = nil, authorization: String? = nil,
        accept: String? = nil
    ) async throws -> HTTPClientResponse {
        var url = forge.contentsURL(owner: owner, repo: repo, path: path)
        if let ref { url.append(queryItems: [URLQueryItem(name: "ref", value: ref)]) }
        var headers: HTTPHeaders = [:]
        if let authorization { headers["Authorization"] = authorization }
        if let accept { headers["Accept"] = accept }
        return try await transport.send(HTTPClientRequest(url: url, headers: headers))
    }

    /// Forgejo's `GET …/raw/{path}`.
    func getRaw(_ owner: String, _ repo: String, _ path: String, authorization: String? = nil) async throws
        -> HTTPClientResponse
    {
        var headers: HTTPHeaders = [:]
        if let authorization { headers["Authorization"] = authorization }
        return try await transport.send(
            HTTPClientRequest(url: forge.rawURL(owner: owner, repo: repo, path: path), headers: headers))
    }

    /// `PUT` or `POST …/contents/{path}` with a JSON body of `message`, base64 `content`, and `branch` and
    /// `sha` when given.
    func write(
        _ owner: String, _ repo: String, _ path: String, method: HTTPClientMethod = .put, text: String,
        sha: String? = nil, branch: String? = nil, message: String = "Publish the feed",
        authorization: String? = nil
    ) async throws -> HTTPClientResponse {
        var members: [(String, JSONValue)] = [
            ("message", .string(message)), ("content", .string(Data(text.utf8).base64EncodedString())),
        ]
        if let branch { members.append(("branch", .string(branch))) }
        if let sha { members.append(("sha", .string(sha))) }
        var headers: HTTPHeaders = ["Content-Type": "application/json"]
        if let authorization { headers["Authorization"] = authorization }
        return try await transport.send(
            HTTPClientRequest(
                method: method, url: forge.contentsURL(owner: owner, repo: repo, path: path), headers: headers,
                body: JSONValue.object(members).encoded()))
    }
}

/// A JSON object answer's members (an empty object when the body is not one).
func jsonObject(_ response: HTTPClientResponse) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
}

/// A string member of a JSON object answer, or of one of its objects (`"content.sha"`).
func jsonString(_ response: HTTPClientResponse, _ keyPath: String) -> String? {
    var object = jsonObject(response)
    let keys = keyPath.split(separator: ".").map(String.init)
    for key in keys.dropLast() { object = object[key] as? [String: Any] ?? [:] }
    return keys.last.flatMap { object[$0] as? String }
}

/// The Git blob SHA of `hello world\n`, as `git hash-object` prints it: a value computed outside our code.
let helloWorldBlobSHA = "3b18e512dba79e4c8300dd08aeb37f8e728b8dad"
