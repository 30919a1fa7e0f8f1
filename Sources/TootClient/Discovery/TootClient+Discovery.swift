import Foundation
import HTTPCore

extension TootClient {
    /// Finds out what the server runs and its limits: nodeinfo first (the highest schema offered), then
    /// `/api/v2/instance`, then `/api/v1/instance`, each limit taken from the first document that has it
    /// (mastodon-api.md §1.1, §3.2). No token is needed.
    /// - Returns: the profile, to keep.
    /// - Throws: ``TootClientError/noMastodonAPI(instance:software:)`` for Misskey and the like;
    ///   ``TootClientError/invalidResponse(url:reason:)`` when the server answers none of the documents;
    ///   other ``TootClientError``s for network failures.
    public func discover() async throws -> ServerProfile {
        let (schema, nodeInfo) = try await fetchNodeInfo()
        if let nodeInfo {
            let platform = Platforms.platform(
                software: nodeInfo.software.name, version: nodeInfo.software.version ?? "")
            if !platform.hasMastodonAPI {
                throw TootClientError.noMastodonAPI(instance: instanceURL.absoluteString, software: platform.name)
            }
        }
        var instanceDocument: String?
        var v2: InstanceDocument?
        var v1: InstanceDocument?
        let v2Document: InstanceDocument? = try await optionalDocument(["api", "v2", "instance"])
        if let document = v2Document {
            v2 = document
            instanceDocument = "v2"
        }
        if v2 == nil || v2?.configuration?.statuses?.maxCharacters == nil {
            let v1Document: InstanceDocument? = try await optionalDocument(["api", "v1", "instance"])
            if let document = v1Document {
                v1 = document
                if instanceDocument == nil { instanceDocument = "v1" }
            }
        }
        guard nodeInfo != nil || instanceDocument != nil else {
            throw TootClientError.invalidResponse(
                url: instanceURL.absoluteString, reason: "it serves neither nodeinfo nor an instance document")
        }
        let versionString = nodeInfo?.software.version ?? v2?.version ?? v1?.version ?? ""
        let software = nodeInfo?.software.name.lowercased() ?? Self.compatibleSoftware(v2?.version ?? v1?.version)
        let version =
            nodeInfo == nil ? Self.compatibleVersion(v2?.version ?? v1?.version) ?? versionString : versionString
        return ServerProfile(
            instanceURL: instanceURL, software: software, version: version,
            apiVersion: v2?.apiVersions?.mastodon ?? v1?.apiVersions?.mastodon, nodeInfoSchema: schema,
            instanceDocument: instanceDocument, limits: Self.limits(v2: v2, v1: v1, nodeInfo: nodeInfo))
    }

    /// The nodeinfo document with the highest schema the server links, or `nil` when there is none.
    private func fetchNodeInfo() async throws -> (String?, NodeInfoDocument?) {
        guard let links: NodeInfoLinks = try await optionalDocument([".well-known", "nodeinfo"]) else {
            return (nil, nil)
        }
        let prefix = "http://nodeinfo.diaspora.software/ns/schema/"
        let candidates = links.links.compactMap { link -> (SoftwareVersion, String, URL)? in
            guard link.rel.hasPrefix(prefix), let url = URL(string: link.href) else { return nil }
            let schema = String(link.rel.dropFirst(prefix.count))
            return (SoftwareVersion(parsing: schema), schema, url)
        }
        guard let best = candidates.max(by: { $0.0 < $1.0 }) else { return (nil, nil) }
        // The href names the server's own host; only its path is used, so the request stays on this instance.
        let path = best.2.path.split(separator: "/").map(String.init)
        let document: NodeInfoDocument? = try await optionalDocument(path)
        return (document == nil ? nil : best.1, document)
    }

    /// A public JSON document, or `nil` when the server lacks it (400, 404, 410, 501, or not JSON).
    private func optionalDocument<T: Decodable & Sendable>(_ path: [String]) async throws -> T? {
        do {
            let response: TootResponse<T> = try await fetch(TootRequest(method: .get, path: path, authenticated: false))
            return response.value
        } catch TootClientError.notFound, TootClientError.invalidResponse {
            return nil
        } catch TootClientError.httpError(_, let status, _) where status == 400 || status == 501 {
            return nil
        }
    }

    /// The limits, each from the first place that has it.
    static func limits(v2: InstanceDocument?, v1: InstanceDocument?, nodeInfo: NodeInfoDocument?) -> InstanceLimits {
        let defaults = InstanceLimits.mastodonDefaults
        let statuses = [v2?.configuration?.statuses, v1?.configuration?.statuses]
        let polls = [v2?.configuration?.polls, v1?.configuration?.polls]
        let pleromaPolls = [v1?.pollLimits, nodeInfo?.metadata?.pollLimits]
        func first<T>(_ values: [T?]) -> T? { values.lazy.compactMap { $0 }.first }
        return InstanceLimits(
            maxCharacters: first(
                statuses.map { $0?.maxCharacters } + [v1?.maxTootChars, nodeInfo?.metadata?.maxNoteTextLength])
                ?? defaults.maxCharacters,
            charactersPerURL: first(statuses.map { $0?.charactersReservedPerUrl }) ?? defaults.charactersPerURL,
            maxMediaAttachments: first(statuses.map { $0?.maxMediaAttachments }) ?? defaults.maxMediaAttachments,
            pollMaxOptions: first(polls.map { $0?.maxOptions } + pleromaPolls.map { $0?.maxOptions })
                ?? defaults.pollMaxOptions,
            pollMaxCharactersPerOption: first(
                polls.map { $0?.maxCharactersPerOption } + pleromaPolls.map { $0?.maxOptionChars })
                ?? defaults.pollMaxCharactersPerOption,
            pollMinExpiration: first(polls.map { $0?.minExpiration } + pleromaPolls.map { $0?.minExpiration })
                ?? defaults.pollMinExpiration,
            pollMaxExpiration: first(polls.map { $0?.maxExpiration } + pleromaPolls.map { $0?.maxExpiration })
                ?? defaults.pollMaxExpiration)
    }

    /// The software named in a `(compatible; Akkoma 3.10.2)` version string, lowercased; `unknown` without one.
    static func compatibleSoftware(_ version: String?) -> String {
        guard let inner = compatibleClause(version) else { return "unknown" }
        return String(inner.split(separator: " ").first ?? "unknown").lowercased()
    }

    /// The version in a `(compatible; Akkoma 3.10.2)` clause.
    static func compatibleVersion(_ version: String?) -> String? {
        guard let inner = compatibleClause(version) else { return nil }
        let words = inner.split(separator: " ")
        return words.count > 1 ? String(words[1]) : nil
    }

    private static func compatibleClause(_ version: String?) -> Substring? {
        guard let version, let start = version.range(of: "(compatible; ") else { return nil }
        let rest = version[start.upperBound...]
        return rest.prefix { $0 != ")" }
    }
}
