import Foundation
package import HTTPCore

/// A request's parameters from wherever they came (query, form, multipart fields or JSON), flattened the
/// way Rails reads them: `status`, `media_ids[]`, `poll[options][]`, `poll[expires_in]`.
package struct FakeRequestParameters: Sendable {
    /// The values by flattened name.
    package private(set) var values: [String: [String]] = [:]
    /// Names present even with no value (a JSON `"media_ids": []`).
    package private(set) var present: Set<String> = []
    /// Whether the body was JSON.
    package private(set) var isJSON = false

    /// Reads `request`'s query and body.
    /// - Parameter request: the request.
    package init(_ request: HTTPRequest) {
        for item in request.queryItems { add(item.name, item.value) }
        let type = (request.headers["Content-Type"] ?? "").lowercased()
        if type.hasPrefix("application/json") {
            isJSON = true
            if let value = try? JSONSerialization.jsonObject(with: Data(request.body), options: [.fragmentsAllowed]),
                let object = value as? [String: Any]
            {
                for (key, member) in object { flatten(key, member) }
            }
        } else if type.hasPrefix("application/x-www-form-urlencoded") {
            for pair in String(decoding: request.body, as: UTF8.self).split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                let name = RequestTarget.percentDecoded(Array(parts[0].utf8), plusIsSpace: true)
                let value = parts.count > 1 ? RequestTarget.percentDecoded(Array(parts[1].utf8), plusIsSpace: true) : ""
                add(name, value)
            }
        } else if type.hasPrefix("multipart/form-data") {
            for part in MultipartFormParser.parse(request) ?? [] where part.filename == nil {
                add(part.name, String(decoding: part.bytes, as: UTF8.self))
            }
        }
    }

    private mutating func add(_ name: String, _ value: String) {
        values[name, default: []].append(value)
        present.insert(name)
    }

    private mutating func flatten(_ name: String, _ value: Any) {
        switch value {
        case let object as [String: Any]:
            present.insert(name)
            for (key, member) in object { flatten("\(name)[\(key)]", member) }
        case let array as [Any]:
            present.insert("\(name)[]")
            for element in array { flatten("\(name)[]", element) }
        case let text as String: add(name, text)
        case let number as NSNumber: add(name, number.stringValue)
        case is NSNull: present.insert(name)
        default: add(name, "\(value)")
        }
    }

    /// The first value of `name`.
    /// - Parameter name: the flattened name.
    /// - Returns: the value, or `nil`.
    package func string(_ name: String) -> String? { values[name]?.first }

    /// Every value of `name` (`media_ids[]`).
    /// - Parameter name: the flattened name.
    /// - Returns: the values; empty when none.
    package func strings(_ name: String) -> [String] { values[name] ?? [] }

    /// Whether `name` was sent, even empty.
    /// - Parameter name: the flattened name.
    /// - Returns: whether it was sent.
    package func has(_ name: String) -> Bool { present.contains(name) || values[name] != nil }

    /// `name` as a boolean (`true` or `1`).
    /// - Parameter name: the flattened name.
    /// - Returns: the value, or `nil` when absent.
    package func bool(_ name: String) -> Bool? {
        string(name).map { $0 == "true" || $0 == "1" }
    }

    /// `name` as an integer.
    /// - Parameter name: the flattened name.
    /// - Returns: the value, or `nil` when absent or not a number.
    package func int(_ name: String) -> Int? { string(name).flatMap { Int($0) ?? Double($0).map { Int($0) } } }
}
