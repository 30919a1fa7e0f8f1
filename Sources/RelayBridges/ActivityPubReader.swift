import Foundation
import OrgSocialClient
import OrgSocialText

/// Reads an ActivityPub account for its bridge (`relay-api.md` §2.20): WebFinger → actor → outbox (up to
/// 3 pages), keeping up to 40 public top-level `Create`/`Note`s (no replies, no boosts). A note's content
/// warning becomes a `CW:` first line, its attachments Org links with their alt text, its hashtags
/// `:TAGS:`, its `contentMap` language `:LANG:`; IDs are the UTC `published` times.
///
/// A refresh starts at the stored actor (no WebFinger) and asks for the outbox with the validators of its
/// last `200`; a `304` means the stored file stands, and no page is read.
struct ActivityPubReader: Sendable {
    /// What an account read gives.
    struct Account: Sendable {
        /// The actor's URL.
        var actorURL: String
        /// The virtual file; `nil` when the outbox answered `304` to the stored validators.
        var document: BridgeDocument?
        /// The `ETag` and `Last-Modified` of the outbox's last `200` (for the next refresh).
        var outboxValidators: FeedValidators
    }

    /// The most notes a virtual feed holds.
    static let noteLimit = 40
    /// The most outbox pages read.
    static let pageLimit = 3
    /// The `Accept` of actor and outbox requests.
    static let activityJSON =
        "application/activity+json, application/ld+json; profile=\"https://www.w3.org/ns/activitystreams\""
    /// The addresses that make an object public.
    static let publicAddresses: Set<String> = ["https://www.w3.org/ns/activitystreams#Public", "as:Public", "Public"]

    /// The requests.
    let fetcher: BridgeFetcher
    /// Whether an instance may be a loopback address with a port, read over plain HTTP.
    let allowPrivateAddresses: Bool

    /// Reads the account `handle` (`user@instance`, canonical).
    /// - Parameters:
    ///   - handle: the handle.
    ///   - actorURL: the actor found by an earlier read; WebFinger is asked when `nil`.
    ///   - outboxValidators: the outbox validators of an earlier read, for a conditional outbox request.
    /// - Returns: the actor URL, the virtual file (`nil` when the outbox is unchanged) and the validators.
    /// - Throws: ``RelayBridgeError``; `signedFetchRequired` for a 401 or 403.
    func read(handle: String, actorURL: String? = nil, outboxValidators: FeedValidators? = nil)
        async throws(RelayBridgeError) -> Account
    {
        guard let at = handle.firstIndex(of: "@") else {
            throw .unexpectedActivityPub(url: handle, reason: "the handle has no instance")
        }
        let actorLink: String
        if let actorURL {
            actorLink = actorURL
        } else {
            actorLink = try await webFingerActor(handle: handle)
        }
        guard let actorLocation = URL(string: actorLink) else {
            throw .unexpectedActivityPub(url: actorLink, reason: "the actor URL is not a URL")
        }
        let actor = try await signedJSON(actorLocation, accept: Self.activityJSON)
        guard let outboxText = actor["outbox"] as? String, let outboxURL = URL(string: outboxText) else {
            throw .unexpectedActivityPub(url: actorLink, reason: "the actor has no outbox")
        }
        let outbox = try await signedResult(outboxURL, validators: outboxValidators)
        guard case .fresh(let outboxBody) = outbox.outcome else {
            return Account(actorURL: actorLink, document: nil, outboxValidators: outboxValidators ?? FeedValidators())
        }
        guard let outboxObject = try? JSONSerialization.jsonObject(with: Data(outboxBody)) as? [String: Any] else {
            throw .unexpectedActivityPub(url: outboxText, reason: "the answer is not a JSON object")
        }
        let notes = try await readOutbox(outboxObject)
        let converter = HTMLOrgConverter()
        let ids = BridgeDates.uniquePostIDs(notes.map(\.published))
        let posts = zip(notes, ids).map { note, id in
            let text = converter.convert(note.content)
            return BridgeDocument.Post(id: id, body: text.body, language: note.language, tags: text.tags)
        }
        let username = actor["preferredUsername"] as? String ?? String(handle[..<at])
        let name = (actor["name"] as? String).map(BridgeDocument.singleLine) ?? ""
        let summary = (actor["summary"] as? String).map { converter.convert(StatusContent(html: $0)).body } ?? ""
        let document = BridgeDocument(
            title: name.isEmpty ? username : name, nick: username, description: summary,
            avatar: Self.url(of: actor["icon"]), link: actor["url"] as? String ?? actorLink, posts: posts)
        return Account(
            actorURL: actorLink, document: document,
            outboxValidators: FeedValidators(etag: outbox.etag, lastModified: outbox.lastModified))
    }

    /// The actor URL WebFinger gives for `handle`.
    /// - Throws: ``RelayBridgeError``; `unexpectedActivityPub` when WebFinger names no ActivityPub actor.
    private func webFingerActor(handle: String) async throws(RelayBridgeError) -> String {
        guard let at = handle.firstIndex(of: "@") else {
            throw .unexpectedActivityPub(url: handle, reason: "the handle has no instance")
        }
        let instance = String(handle[handle.index(after: at)...])
        let scheme = allowPrivateAddresses && Self.isLocalInstance(instance) ? "http" : "https"
        guard
            let webfinger = URL(
                string: "\(scheme)://\(instance)/.well-known/webfinger?resource=acct:\(handle)")
        else {
            throw .unexpectedActivityPub(url: handle, reason: "the instance is not a host name")
        }
        let finger = try await signedJSON(webfinger, accept: "application/jrd+json, application/json")
        let links = finger["links"] as? [[String: Any]] ?? []
        guard
            let actorLink = links.first(where: { link in
                link["rel"] as? String == "self"
                    && ((link["type"] as? String)?.contains("activity+json") == true
                        || (link["type"] as? String)?.contains("ld+json") == true)
            })?["href"] as? String
        else {
            throw .unexpectedActivityPub(url: webfinger.absoluteString, reason: "WebFinger names no ActivityPub actor")
        }
        return actorLink
    }

    /// A note worth bridging.
    struct Note: Sendable {
        var published: Date
        var content: StatusContent
        var language: String?
    }

    /// The public top-level notes of up to ``pageLimit`` pages of `outbox`, newest first, at most ``noteLimit``.
    private func readOutbox(_ outbox: [String: Any]) async throws(RelayBridgeError) -> [Note] {
        var notes: [Note] = []
        var page: [String: Any]? = outbox["orderedItems"] != nil ? outbox : nil
        var next: String? = page == nil ? nil : outbox["next"] as? String
        if page == nil {
            if let first = outbox["first"] as? [String: Any] {
                page = first
                next = first["next"] as? String
            } else if let first = outbox["first"] as? String {
                next = first
            }
        }
        var pages = 0
        while pages < Self.pageLimit, notes.count < Self.noteLimit {
            if page == nil {
                guard let next, let nextURL = URL(string: next) else { break }
                let loaded = try await signedJSON(nextURL, accept: Self.activityJSON)
                page = loaded
            }
            guard let current = page else { break }
            pages += 1
            let items = current["orderedItems"] as? [Any] ?? current["items"] as? [Any] ?? []
            for case let activity as [String: Any] in items {
                guard notes.count < Self.noteLimit, let note = Self.note(of: activity) else { continue }
                notes.append(note)
            }
            next = current["next"] as? String
            page = nil
            if items.isEmpty { break }
        }
        return notes
    }

    /// The JSON object at `url`, a 401 or 403 reported as ``RelayBridgeError/signedFetchRequired(url:status:)``.
    private func signedJSON(_ url: URL, accept: String) async throws(RelayBridgeError) -> [String: Any] {
        do {
            return try await fetcher.json(url, accept: accept)
        } catch .httpStatus(let failed, let status) where status == 401 || status == 403 {
            throw .signedFetchRequired(url: failed, status: status)
        }
    }

    /// The ActivityJSON answer at `url`, conditional on `validators`; 401 and 403 as in ``signedJSON(_:accept:)``.
    private func signedResult(_ url: URL, validators: FeedValidators?) async throws(RelayBridgeError)
        -> ConditionalFetchResult
    {
        do {
            return try await fetcher.get(url, accept: Self.activityJSON, validators: validators)
        } catch .httpStatus(let failed, let status) where status == 401 || status == 403 {
            throw .signedFetchRequired(url: failed, status: status)
        }
    }

    /// The note of a public `Create` activity of a top-level `Note`, or `nil`.
    static func note(of activity: [String: Any]) -> Note? {
        guard activity["type"] as? String == "Create", let object = activity["object"] as? [String: Any],
            object["type"] as? String == "Note", object["inReplyTo"] == nil || object["inReplyTo"] is NSNull,
            isPublic(activity) || isPublic(object),
            let published = (object["published"] as? String ?? activity["published"] as? String)
                .flatMap(BridgeDates.parse)
        else { return nil }
        let contentMap = object["contentMap"] as? [String: String] ?? [:]
        let language = contentMap.keys.sorted().first
        let html = object["content"] as? String ?? language.flatMap { contentMap[$0] } ?? ""
        var tags: [String] = []
        var mentions: [StatusContent.Mention] = []
        for case let tag as [String: Any] in object["tag"] as? [Any] ?? [] {
            guard let name = tag["name"] as? String else { continue }
            switch tag["type"] as? String {
            case "Hashtag":
                tags.append(name.hasPrefix("#") ? String(name.dropFirst()) : name)
            case "Mention":
                let acct = name.hasPrefix("@") ? String(name.dropFirst()) : name
                mentions.append(
                    StatusContent.Mention(
                        url: tag["href"] as? String ?? "", acct: acct, username: String(acct.prefix { $0 != "@" })))
            default:
                break
            }
        }
        var attachments: [StatusContent.Attachment] = []
        for case let attachment as [String: Any] in object["attachment"] as? [Any] ?? [] {
            guard let url = url(of: attachment["url"]) ?? url(of: attachment["href"]) else { continue }
            let type = (attachment["mediaType"] as? String).map { String($0.prefix { $0 != "/" }) } ?? "file"
            attachments.append(
                StatusContent.Attachment(url: url, description: attachment["name"] as? String, type: type))
        }
        let content = StatusContent(
            html: html, spoilerText: object["summary"] as? String ?? "",
            sensitive: object["sensitive"] as? Bool ?? false, mentions: mentions, tags: tags,
            attachments: attachments)
        return Note(published: published, content: content, language: language)
    }

    /// Whether `to` or `cc` addresses the public collection.
    static func isPublic(_ object: [String: Any]) -> Bool {
        for key in ["to", "cc"] {
            if let one = object[key] as? String, publicAddresses.contains(one) { return true }
            if let many = object[key] as? [Any],
                many.contains(where: { ($0 as? String).map(publicAddresses.contains) ?? false })
            {
                return true
            }
        }
        return false
    }

    /// A URL given as a string, a `Link`/`Image` object (`url` or `href`) or a list of them (the first).
    static func url(of value: Any?) -> String? {
        switch value {
        case let text as String: return text
        case let object as [String: Any]: return url(of: object["url"]) ?? url(of: object["href"])
        case let list as [Any]: return list.lazy.compactMap { url(of: $0) }.first
        default: return nil
        }
    }

    /// Whether an instance is a loopback or IP address, or has a port (only allowed with
    /// `--allow-private-addresses`, and then read over plain HTTP).
    static func isLocalInstance(_ instance: String) -> Bool {
        instance.contains(":") || instance == "localhost"
            || instance.split(separator: ".").allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }
    }
}
