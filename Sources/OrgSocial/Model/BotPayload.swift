/// A bot payload: `:BOT: <type> [param …]` (spec §7, since 1.7).
public struct BotPayload: Sendable, Hashable, Codable {
    /// The bot type (first token).
    public let type: String
    /// The remaining tokens.
    public let parameters: [String]

    /// Makes a bot payload.
    /// - Parameters:
    ///   - type: the bot type, e.g. `chess`.
    ///   - parameters: the data tokens.
    public init(type: String, parameters: [String]) {
        self.type = type
        self.parameters = parameters
    }

    /// Reads `<type> [param …]`; `nil` when empty.
    public init?(parsing value: String) {
        let parts = value.tokens()
        guard let first = parts.first else { return nil }
        self.init(type: first, parameters: Array(parts.dropFirst()))
    }
}
