import EngineProtocol
import Foundation
import HTTPCore
import OrgSocial

/// The methods that change a post or the header (engine-protocol.md §9.24–9.29).
extension Engine {
    func edit(_ params: RPCParams) async throws(RPCError) -> JSONValue {
        let id = try params.requiredString("timestamp")
        let text = try params.requiredString("text")
        let mentions = try params.stringMap("mentions") ?? [:]
        try PostComposition.checkMentions(mentions)
        let lang = try params.string("lang")
        if let lang, !lang.isEmpty { try PostComposition.checkLanguage(lang) }
        let tags = try params.string("tags")
        let mood = try params.string("mood")
        let visibility = try PostComposition.visibility(try params.string("visibility"))
        if try params.string("scheduledAt") != nil {
            throw .invalidParams("only scheduled posts can be rescheduled: a published post keeps its id")
        }
        let body = PostComposition.body(text, mentions: mentions)
        try await write { feed in
            guard feed.post(withID: id) != nil else { throw EngineErrors.postNotFound }
            var edited = PostDraft(try feed.existingPost(id: id))
            edited.body = body
            if let lang { edited.language = lang.isEmpty ? nil : lang }
            if let tags { edited.tags = PostComposition.tags(tags) }
            if let mood { edited.mood = mood.isEmpty ? nil : mood }
            if let visibility { edited.visibility = visibility == .mention ? .mention : nil }
            if edited.visibility == .mention, !body.contains("[[org-social:") {
                throw RPCError.invalidParams("a mention-only post needs at least one mention")
            }
            // As the official engine writes it: the editable properties after all the others.
            try feed.updatePost(id: id) { draft in
                (draft.language, draft.tags, draft.mood, draft.visibility) = (nil, [], nil, nil)
            }
            try feed.updatePost(id: id) { draft in
                draft.body = edited.body
                (draft.language, draft.tags) = (edited.language, edited.tags)
                (draft.mood, draft.visibility) = (edited.mood, edited.visibility)
            }
        }
        return .object([])
    }

    func delete(_ params: RPCParams) async throws(RPCError) -> JSONValue {
        let id = try params.string("timestamp") ?? ""
        try await write { feed in
            guard feed.post(withID: id) != nil else { throw EngineErrors.postNotFound }
            try feed.deletePost(id: id)
        }
        return .object([])
    }

    func pin(_ params: RPCParams) async throws(RPCError) -> JSONValue {
        let id = try params.requiredString("timestamp")
        try await write { feed in
            guard feed.post(withID: id) != nil else { throw EngineErrors.postNotFound }
            if feed.profile.pinned == nil {
                try feed.addKeywordAtHeaderEnd("PINNED", value: id)
            } else {
                try feed.pin(postID: id)
            }
        }
        return .object([])
    }

    func unpin() async throws(RPCError) -> JSONValue {
        try await write { feed in feed.unpin() }
        return .object([])
    }

    func follow(_ params: RPCParams) async throws(RPCError) -> JSONValue {
        let url = try params.requiredString("feed")
        try EngineAccount.checkHTTP(url, "feed")
        let nick = try params.string("nick").flatMap { $0.isEmpty ? nil : $0 }
        if let nick, nick.contains(where: \.isWhitespace) { throw .invalidParams("nick can't contain spaces") }
        if let own = await state.account.feed, FeedURL.same(own, url) {
            throw .invalidParams("you can't follow yourself")
        }
        try await write { feed in
            guard !feed.profile.follows.contains(where: { FeedURL.same($0.url, url) }) else { return }
            try feed.addKeywordAtHeaderEnd("FOLLOW", value: nick.map { "\($0) \(url)" } ?? url)
        }
        return .object([])
    }

    func unfollow(_ params: RPCParams) async throws(RPCError) -> JSONValue {
        let url = try params.requiredString("feed")
        try await write { feed in
            do {
                try feed.unfollow(url)
            } catch OrgSocialError.notFollowing {
                return
            }
        }
        return .object([])
    }

    func joinGroup(_ params: RPCParams, joining: Bool) async throws(RPCError) -> JSONValue {
        let name = try params.requiredString("name")
        let relay = try params.requiredString("relay")
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty else { throw .invalidParams("empty group name") }
        try EngineAccount.checkHTTP(relay, "relay")
        let group = GroupReference(name: name, relayURL: relay)
        try await write { feed in
            if joining {
                guard !feed.profile.groups.contains(group) else { return }
                try feed.addKeywordAtHeaderEnd("GROUP", value: group.value)
            } else {
                feed.removeKeywords("GROUP") { GroupReference(parsing: $0) == group }
            }
        }
        return .object([])
    }

    func updateProfile(_ params: RPCParams) async throws(RPCError) -> JSONValue {
        var single: [(String, String)] = []
        for (param, keyword) in [
            ("title", "TITLE"), ("nick", "NICK"), ("description", "DESCRIPTION"), ("avatar", "AVATAR"),
            ("location", "LOCATION"), ("birthday", "BIRTHDAY"), ("languages", "LANGUAGE"),
        ] {
            guard let value = try params.string(param) else { continue }
            let trimmed = value.trimmingCharacters(in: .whitespaces)
            try Self.checkProfileField(param, trimmed)
            if param == "nick", trimmed.isEmpty { continue }
            single.append((keyword, trimmed))
        }
        var lists: [(String, [String])] = []
        if let links = try params.strings("links") {
            guard links.allSatisfy({ (try? EngineAccount.checkHTTP($0, "links")) != nil }) else {
                throw .invalidParams("links must be URLs")
            }
            lists.append(("LINK", links))
        }
        if let contacts = try params.strings("contacts") {
            guard contacts.allSatisfy({ $0.contains(":") && !$0.contains(" ") }) else {
                throw .invalidParams("contacts must be URIs like mailto:you@example.com")
            }
            lists.append(("CONTACT", contacts))
        }
        guard let feedURL = await state.account.feed else { throw RPCError.notConfigured }
        let feed = try await write { [single, lists] feed in
            for (keyword, value) in single {
                if value.isEmpty || feed.profile.value(of: keyword) != nil {
                    try feed.setKeyword(keyword, to: value)
                } else {
                    try feed.addKeywordAtHeaderEnd(keyword, value: value)
                }
            }
            for (keyword, values) in lists {
                feed.removeKeywords(keyword) { _ in true }
                for value in values { try feed.addKeywordAtHeaderEnd(keyword, value: value) }
            }
            return feed
        }
        return ProfileJSON.own(feed, feedURL: feedURL)
    }

    private static func checkProfileField(_ param: String, _ value: String) throws(RPCError) {
        guard !value.isEmpty else { return }
        switch param {
        case "nick" where value.contains(where: \.isWhitespace):
            throw .invalidParams("nick can't contain spaces")
        case "avatar":
            try EngineAccount.checkHTTP(value, "avatar")
        case "birthday":
            let parts = value.split(separator: "-")
            guard parts.map(\.count) == [4, 2, 2], parts.allSatisfy({ $0.allSatisfy(\.isNumber) }) else {
                throw .invalidParams("birthday must be a date in YYYY-MM-DD format")
            }
        case "languages":
            guard value.split(separator: " ").allSatisfy({ (try? PostComposition.checkLanguage(String($0))) != nil })
            else { throw .invalidParams("languages must be space-separated codes like \"en es\"") }
        default:
            break
        }
    }
}
