import EngineProtocol
import Foundation
import HTTPClient
import HTTPCore
import OrgSocial

/// `GET <mirror>/<name>/?…&_t=<seconds>` and its JSON (engine-protocol.md §6.1, mirror-api.md §1).
struct MirrorReader: Sendable {
    /// The mirror's API base, without a trailing slash.
    let base: String
    /// Sends the requests.
    let transport: any HTTPTransport

    /// What the mirror answered: its `data` (or the bare value) and whether another page exists.
    struct Answer: Sendable {
        let data: RPCValue
        let hasMore: Bool
    }

    /// One read.
    /// - Parameters:
    ///   - name: the endpoint, e.g. `posts`.
    ///   - query: the query's pairs, in order.
    /// - Returns: the answer.
    /// - Throws: ``RPCError`` `network`.
    func get(_ name: String, _ query: [(String, String)] = []) async throws(RPCError) -> Answer {
        let pairs = query + [("_t", String(Int(Date().timeIntervalSince1970)))]
        let text =
            "\(base)/\(name)/?" + pairs.map { "\(Self.encode($0.0))=\(Self.encode($0.1))" }.joined(separator: "&")
        guard let url = URL(string: text) else { throw RPCError(.network, "Network error: unsupported URL") }
        let request = HTTPClientRequest(
            url: url,
            headers: ["Accept": "application/json", "Cache-Control": "no-cache", "Pragma": "no-cache"],
            timeout: .seconds(30))
        let response: HTTPClientResponse
        do {
            response = try await transport.send(request)
        } catch {
            throw RPCError(.network, "Network error: \(error.localizedDescription)")
        }
        let value = RPCValue.parse(response.body)
        guard response.isSuccess else {
            if case .object(let problem)? = value {
                for key in ["detail", "title"] {
                    if case .string(let message)? = problem[key] { throw RPCError(.network, message) }
                }
            }
            throw RPCError(.network, "The mirror returned HTTP \(response.status).")
        }
        guard let value else { throw RPCError(.network, "The mirror response could not be parsed.") }
        guard case .object(let members) = value, let data = members["data"] else {
            return Answer(data: value, hasMore: false)
        }
        var page = 1
        var totalPages = 0
        if case .object(let meta)? = members["meta"] {
            if case .int(let value)? = meta["page"] { page = value }
            if case .int(let value)? = meta["totalPages"] { totalPages = value }
        }
        return Answer(data: data, hasMore: page < totalPages)
    }

    /// Percent-encodes a query value, leaving `:` `/` `?` as they are.
    static func encode(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~:/?")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }
}

extension PostJSON {
    /// A mirror post (mirror-api.md §2.1).
    /// - Parameter value: the post's JSON.
    /// - Returns: the post, or `nil` when it has no usable URL, ID or date.
    static func mirror(_ value: RPCValue) -> PostJSON? {
        guard case .object(let post) = value, case .string(let uri)? = post["uri"],
            let hash = uri.lastIndex(of: "#")
        else { return nil }
        func string(_ key: String) -> String? {
            if case .string(let value)? = post[key] { return value }
            return nil
        }
        let feed = string("feedUrl") ?? String(uri[..<hash])
        let id = string("id") ?? String(uri[uri.index(after: hash)...])
        guard !id.isEmpty else { return nil }
        let date: Date?
        if let created = string("createdAt") {
            date = OrgTimestamp(created).sortInstant
        } else {
            date = OrgTimestamp(id).sortInstant
        }
        guard let date else { return nil }
        var json = PostJSON(
            url: "\(feed)#\(id)", timestamp: id, date: date, authorFeed: feed.isEmpty ? nil : feed,
            text: string("content") ?? "")
        if case .object(let author)? = post["author"] {
            if case .string(let nick)? = author["nick"] { json.authorNick = nick }
            if case .string(let avatar)? = author["avatar"] { json.authorAvatar = avatar }
        }
        if case .array(let tags)? = post["tags"] {
            json.tags = tags.compactMap { if case .string(let tag) = $0 { tag } else { nil } }
        }
        json.lang = string("lang")
        json.mood = string("mood")
        json.replyTo = string("replyTo")
        json.include = string("include")
        json.visibility = string("visibility")
        json.group = string("group").flatMap { $0.isEmpty ? nil : $0 }
        json.pollEnd = string("pollEnd").flatMap { OrgTimestamp($0).sortInstant }
        json.pollOption = string("pollOption")
        json.migration = string("migration")
        json.client = string("client")
        json.pollOptions = json.pollEnd == nil ? [] : PollOptionLine.options(in: json.text)
        return json
    }
}
