import HTTPCore

extension TootClient {
    /// Reblogs (boosts) a status. The answer is a new wrapper status (its own ID, the original in
    /// ``Status/reblog``): keep the wrapper's ID to undo it.
    /// - Parameters:
    ///   - id: the status's local ID.
    ///   - visibility: `public`, `unlisted` or `private`; the account's default when `nil`.
    /// - Returns: the wrapper.
    /// - Throws: ``TootClientError``.
    public func reblog(id: String, visibility: Visibility? = nil) async throws -> Status {
        let body = visibility.map { TootRequest.Body.json(.object([("visibility", .string($0.rawValue))])) } ?? .none
        return try await fetch(TootRequest(method: .post, path: ["api", "v1", "statuses", id, "reblog"], body: body))
            .value
    }

    /// Undoes a reblog of the status `id` (the original's ID).
    /// - Parameter id: the original status's local ID.
    /// - Returns: the original status.
    /// - Throws: ``TootClientError``.
    public func unreblog(id: String) async throws -> Status {
        try await action("unreblog", id)
    }

    /// Favourites a status (idempotent).
    /// - Parameter id: the local ID.
    /// - Returns: the status, `favourited` true.
    /// - Throws: ``TootClientError``.
    public func favourite(id: String) async throws -> Status { try await action("favourite", id) }

    /// Removes a favourite (idempotent).
    /// - Parameter id: the local ID.
    /// - Returns: the status.
    /// - Throws: ``TootClientError``.
    public func unfavourite(id: String) async throws -> Status { try await action("unfavourite", id) }

    /// Pins one of the account's statuses to its profile.
    /// - Parameter id: the local ID.
    /// - Returns: the status, `pinned` true.
    /// - Throws: ``TootClientError``.
    public func pin(id: String) async throws -> Status { try await action("pin", id) }

    /// Unpins a status.
    /// - Parameter id: the local ID.
    /// - Returns: the status.
    /// - Throws: ``TootClientError``.
    public func unpin(id: String) async throws -> Status { try await action("unpin", id) }

    /// Votes in a poll (`POST /api/v1/polls/:id/votes`).
    /// - Parameters:
    ///   - pollID: the poll's ID.
    ///   - choices: the chosen options' indices.
    /// - Returns: the poll after the vote.
    /// - Throws: ``TootClientError/validationFailed(url:message:fieldErrors:)`` for an expired poll or a
    ///   bad index.
    public func vote(pollID: String, choices: [Int]) async throws -> Poll {
        try await fetch(
            TootRequest(
                method: .post, path: ["api", "v1", "polls", pollID, "votes"],
                body: .json(.object([("choices", .array(choices.map { .int($0) }))])))
        ).value
    }

    private func action(_ name: String, _ id: String) async throws -> Status {
        try await fetch(TootRequest(method: .post, path: ["api", "v1", "statuses", id, name])).value
    }
}
