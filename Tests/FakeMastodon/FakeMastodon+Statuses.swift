import Foundation
import HTTPCore
import Synchronization

extension FakeMastodon {
    /// The poll (or the 422) from `poll[…]` parameters, checked against the limits.
    private func pollFromParameters(_ parameters: FakeRequestParameters, _ storage: inout FakeMastodonStorage)
        -> Result<FakePoll?, FakeRefusal>
    {
        guard parameters.has("poll") || parameters.has("poll[options][]") else { return .success(nil) }
        let options = parameters.strings("poll[options][]")
        guard let expiresIn = parameters.int("poll[expires_in]"), !options.isEmpty else {
            return .failure(
                FakeRefusal(
                    Self.error("Validation failed: Poll options and expiry are required", status: .unprocessableContent)
                ))
        }
        let limits = configuration.pollLimits
        if options.count < 2 || options.count > limits.maxOptions {
            return .failure(
                FakeRefusal(
                    Self.error(
                        "Validation failed: Poll must have between 2 and \(limits.maxOptions) options",
                        status: .unprocessableContent)))
        }
        if options.contains(where: { $0.count > limits.maxCharacters }) {
            return .failure(
                FakeRefusal(Self.error("Validation failed: Poll options are too long", status: .unprocessableContent)))
        }
        if expiresIn < limits.minExpiration || expiresIn > limits.maxExpiration {
            return .failure(
                FakeRefusal(
                    Self.error("Validation failed: Poll duration is out of range", status: .unprocessableContent)))
        }
        storage.nextSmallID += 1
        return .success(
            FakePoll(
                id: String(storage.nextSmallID + 2000), options: options,
                votes: Array(repeating: 0, count: options.count),
                expiresAt: clock.now.addingTimeInterval(Double(expiresIn)),
                multiple: parameters.bool("poll[multiple]") ?? false))
    }

    /// Mastodon's status validation: text, length, media, poll.
    private func validate(
        text: String, spoilerText: String, mediaIDs: [String], hasPoll: Bool, storage: FakeMastodonStorage,
        accountID: String
    ) -> FakeRefusal? {
        func refuse(_ message: String) -> FakeRefusal {
            FakeRefusal(Self.error("Validation failed: \(message)", status: .unprocessableContent))
        }
        if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, mediaIDs.isEmpty {
            return refuse("Text can't be blank")
        }
        if configuration.requiresMedia, mediaIDs.isEmpty { return refuse("Media can't be blank") }
        let length = FakeStatusText.countedLength(
            text, spoilerText: spoilerText, charactersPerURL: configuration.charactersPerURL)
        if length > configuration.maxCharacters {
            return refuse("Text character limit of \(configuration.maxCharacters) exceeded")
        }
        if !mediaIDs.isEmpty, hasPoll { return refuse("Cannot attach both media and a poll") }
        if mediaIDs.count > configuration.maxMediaAttachments {
            return refuse("Media attachments exceed the limit of \(configuration.maxMediaAttachments)")
        }
        let media = mediaIDs.compactMap { storage.media[$0] }
        if media.count != mediaIDs.count || media.contains(where: { $0.accountID != accountID }) {
            return refuse("Media attachments are not found")
        }
        if media.contains(where: { !$0.isProcessed }) {
            return refuse("Media attachments have not finished processing")
        }
        let kinds = Set(media.map { $0.type == "image" ? "image" : "other" })
        if kinds.count > 1 || (kinds == ["other"] && media.count > 1) {
            return refuse("Cannot attach a video to a post that already contains images")
        }
        return nil
    }

    /// `POST /api/v1/statuses`: JSON, form or multipart; validation; `Idempotency-Key` per the mode.
    func createStatus(_ call: FakeCall) -> HTTPResponse {
        let token: FakeToken
        switch requireUser(call, scope: "write:statuses") {
        case .failure(let refusal): return refusal.response
        case .success(let value): token = value
        }
        let parameters = call.parameters
        let accountID = token.accountID ?? user.id
        let key = call.request.headers["Idempotency-Key"].map { "\(token.token)|\($0)" }
        return state.withLock { storage -> HTTPResponse in
            if let key, configuration.idempotency != .ignored, let earlier = storage.idempotency[key],
                clock.now.timeIntervalSince(earlier.at) < 3600
            {
                if configuration.idempotency == .error500OnDuplicate {
                    return Self.error("Internal server error", status: .internalServerError)
                }
                if let status = storage.statuses[earlier.statusID] {
                    return Self.json(render(status, in: storage, viewer: accountID))
                }
            }
            let text = parameters.string("status") ?? ""
            let spoilerText = parameters.string("spoiler_text") ?? ""
            let mediaIDs = parameters.strings("media_ids[]")
            let poll: FakePoll?
            switch pollFromParameters(parameters, &storage) {
            case .failure(let refusal): return refusal.response
            case .success(let value): poll = value
            }
            if let refusal = validate(
                text: text, spoilerText: spoilerText, mediaIDs: mediaIDs, hasPoll: poll != nil, storage: storage,
                accountID: accountID)
            {
                return refusal.response
            }
            var createdAt: Date?
            if let scheduled = parameters.string("scheduled_at") {
                let date = Self.parseDate(scheduled)
                if configuration.backdates, let date, date < clock.now {
                    createdAt = date
                } else {
                    return Self.error(
                        "Validation failed: Scheduled at must be at least 5 minutes in the future",
                        status: .unprocessableContent)
                }
            }
            let parent = parameters.string("in_reply_to_id")
            if let parent, storage.statuses[parent] == nil {
                return Self.error("Record not found", status: .notFound)
            }
            let app = token.appID.flatMap { id in storage.apps.values.first { $0.id == id } }
            let status = makeStatus(
                &storage, accountID: accountID, text: text, appName: app?.name, spoilerText: spoilerText,
                visibility: parameters.string("visibility") ?? "public", language: parameters.string("language"),
                inReplyToID: parent, mediaIDs: mediaIDs, poll: poll, createdAt: createdAt)
            if let key, configuration.idempotency != .ignored {
                storage.idempotency[key] = (status.id, clock.now)
            }
            return Self.json(render(status, in: storage, viewer: accountID))
        }
    }

    /// A timestamp sent as `scheduled_at`.
    static func parseDate(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }

    /// A status the caller may see, or the 404.
    private func visible(_ id: String, _ storage: FakeMastodonStorage) -> FakeStatus? {
        storage.statuses[id]
    }

    /// `GET /api/v1/statuses/:id`.
    func showStatus(_ call: FakeCall, _ id: String) -> HTTPResponse {
        state.withLock { storage in
            guard let status = visible(id, storage) else { return Self.error("Record not found", status: .notFound) }
            return Self.json(render(status, in: storage, viewer: call.token?.accountID))
        }
    }

    /// `GET /api/v1/statuses?id[]=…`: those that exist, in the order asked.
    func batch(_ call: FakeCall) -> HTTPResponse {
        let ids = call.parameters.strings("id[]")
        return state.withLock { storage in
            Self.json(
                .array(
                    ids.compactMap { storage.statuses[$0] }.map {
                        render($0, in: storage, viewer: call.token?.accountID)
                    }))
        }
    }

    /// `GET /api/v1/statuses/:id/source`: the author's own statuses only.
    func source(_ call: FakeCall, _ id: String) -> HTTPResponse {
        guard case .success(let token) = requireUser(call, scope: "read:statuses") else {
            return Self.error("The access token is invalid", status: .unauthorized)
        }
        return state.withLock { storage in
            guard let status = storage.statuses[id], status.accountID == token.accountID else {
                return Self.error("Record not found", status: .notFound)
            }
            return Self.json(
                .object([
                    ("id", .string(status.id)), ("text", .string(status.text)),
                    ("spoiler_text", .string(status.spoilerText)),
                ]))
        }
    }

    /// `GET /api/v1/statuses/:id/context`.
    func context(_ call: FakeCall, _ id: String) -> HTTPResponse {
        state.withLock { storage in
            guard let status = storage.statuses[id] else { return Self.error("Record not found", status: .notFound) }
            var ancestors: [FakeStatus] = []
            var cursor = status.inReplyToID
            while let parentID = cursor, let parent = storage.statuses[parentID] {
                ancestors.insert(parent, at: 0)
                cursor = parent.inReplyToID
            }
            var descendants: [FakeStatus] = []
            var frontier = [status.id]
            while let next = frontier.first {
                frontier.removeFirst()
                let children = storage.statuses.values.filter { $0.inReplyToID == next }.sorted {
                    $0.sequence < $1.sequence
                }
                descendants += children
                frontier += children.map(\.id)
            }
            let viewer = call.token?.accountID
            return Self.json(
                .object([
                    ("ancestors", .array(ancestors.map { render($0, in: storage, viewer: viewer) })),
                    ("descendants", .array(descendants.map { render($0, in: storage, viewer: viewer) })),
                ]))
        }
    }

    /// `PUT /api/v1/statuses/:id`: media and poll left out are removed; an unchanged edit is a no-op.
    func editStatus(_ call: FakeCall, _ id: String) -> HTTPResponse {
        let token: FakeToken
        switch requireUser(call, scope: "write:statuses") {
        case .failure(let refusal): return refusal.response
        case .success(let value): token = value
        }
        let parameters = call.parameters
        return state.withLock { storage -> HTTPResponse in
            guard var status = storage.statuses[id], status.accountID == token.accountID, status.reblogOf == nil else {
                return Self.error("Record not found", status: .notFound)
            }
            let text = parameters.string("status") ?? status.text
            let spoilerText = parameters.string("spoiler_text") ?? status.spoilerText
            let mediaIDs = parameters.strings("media_ids[]")
            let newOptions = parameters.strings("poll[options][]")
            var poll: FakePoll?
            if let existing = status.poll, !newOptions.isEmpty, newOptions == existing.options {
                poll = existing
            } else {
                switch pollFromParameters(parameters, &storage) {
                case .failure(let refusal): return refusal.response
                case .success(let value): poll = value
                }
            }
            if let refusal = validate(
                text: text, spoilerText: spoilerText, mediaIDs: mediaIDs, hasPoll: poll != nil, storage: storage,
                accountID: status.accountID)
            {
                return refusal.response
            }
            let changed =
                text != status.text || spoilerText != status.spoilerText || mediaIDs != status.mediaIDs
                || poll?.options != status.poll?.options
                || (parameters.string("language") ?? status.language) != status.language
            if changed {
                status.text = text
                status.spoilerText = spoilerText
                status.sensitive = parameters.bool("sensitive") ?? !spoilerText.isEmpty
                status.language = parameters.string("language") ?? status.language
                status.mediaIDs = mediaIDs
                status.poll = poll
                status.editedAt = clock.now
                storage.statuses[id] = status
            }
            guard configuration.editAnswersStatus else { return HTTPResponse(status: .ok, bytes: []) }
            return Self.json(render(status, in: storage, viewer: token.accountID))
        }
    }

    /// `DELETE /api/v1/statuses/:id`: the status with its `text`; then gone everywhere.
    func deleteStatus(_ call: FakeCall, _ id: String) -> HTTPResponse {
        let token: FakeToken
        switch requireUser(call, scope: "write:statuses") {
        case .failure(let refusal): return refusal.response
        case .success(let value): token = value
        }
        return state.withLock { storage -> HTTPResponse in
            guard let status = storage.statuses[id], status.accountID == token.accountID else {
                return Self.error("Record not found", status: .notFound)
            }
            let rendered = render(status, in: storage, viewer: token.accountID, withText: true)
            storage.statuses[id] = nil
            for wrapper in storage.statuses.values where wrapper.reblogOf == id { storage.statuses[wrapper.id] = nil }
            if call.parameters.bool("delete_media") == true {
                for mediaID in status.mediaIDs { storage.media[mediaID] = nil }
            }
            switch configuration.deleteAnswer {
            case .status: return Self.json(rendered)
            case .emptyArray: return Self.json(.array([]))
            case .emptyBody: return HTTPResponse(status: .ok, bytes: [])
            }
        }
    }

    /// `POST …/reblog`, `unreblog`, `favourite`, `unfavourite`, `pin`, `unpin`.
    func interact(_ call: FakeCall, _ id: String, _ action: String) -> HTTPResponse {
        let scope =
            action.contains("favourite")
            ? "write:favourites" : (action.contains("pin") ? "write:accounts" : "write:statuses")
        let token: FakeToken
        switch requireUser(call, scope: scope) {
        case .failure(let refusal): return refusal.response
        case .success(let value): token = value
        }
        let viewer = token.accountID ?? user.id
        return state.withLock { storage -> HTTPResponse in
            guard var status = storage.statuses[id] else { return Self.error("Record not found", status: .notFound) }
            switch action {
            case "reblog":
                if let existing = storage.statuses.values.first(where: { $0.reblogOf == id && $0.accountID == viewer })
                {
                    return Self.json(render(existing, in: storage, viewer: viewer))
                }
                var wrapper = makeStatus(
                    &storage, accountID: viewer, text: "", appName: nil,
                    visibility: call.parameters.string("visibility") ?? "public")
                wrapper.reblogOf = id
                storage.statuses[wrapper.id] = wrapper
                return Self.json(render(wrapper, in: storage, viewer: viewer))
            case "unreblog":
                for wrapper in storage.statuses.values where wrapper.reblogOf == id && wrapper.accountID == viewer {
                    storage.statuses[wrapper.id] = nil
                }
            case "favourite": status.favouritedBy.insert(viewer)
            case "unfavourite": status.favouritedBy.remove(viewer)
            case "pin", "unpin":
                guard status.accountID == viewer else {
                    return Self.error(
                        "Validation failed: Status can only be pinned by its author", status: .unprocessableContent)
                }
                status.pinned = action == "pin"
            default: return Self.error("Record not found", status: .notFound)
            }
            storage.statuses[id] = status
            return Self.json(render(status, in: storage, viewer: viewer))
        }
    }

    /// `POST /api/v1/polls/:id/votes`: 422 on an expired poll, a bad index or a second vote.
    func vote(_ call: FakeCall, _ pollID: String) -> HTTPResponse {
        let token: FakeToken
        switch requireUser(call, scope: "write:statuses") {
        case .failure(let refusal): return refusal.response
        case .success(let value): token = value
        }
        let choices = call.parameters.strings("choices[]").compactMap { Int($0) }
        let voter = token.accountID ?? user.id
        return state.withLock { storage -> HTTPResponse in
            guard var status = storage.statuses.values.first(where: { $0.poll?.id == pollID }), var poll = status.poll
            else {
                return Self.error("Record not found", status: .notFound)
            }
            if poll.expiresAt <= clock.now {
                return Self.error("Validation failed: The poll has already ended", status: .unprocessableContent)
            }
            if poll.voters[voter] != nil {
                return Self.error(
                    "Validation failed: You have already voted on this poll", status: .unprocessableContent)
            }
            if choices.isEmpty || choices.contains(where: { $0 < 0 || $0 >= poll.options.count })
                || (!poll.multiple && choices.count > 1)
            {
                return Self.error("Validation failed: That choice is not valid", status: .unprocessableContent)
            }
            for choice in choices { poll.votes[choice] += 1 }
            poll.voters[voter] = choices
            status.poll = poll
            storage.statuses[status.id] = status
            return Self.json(render(poll, viewer: voter))
        }
    }
}
