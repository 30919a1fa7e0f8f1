/// One `name=value` pair from a request target's query string, percent-decoded.
public struct HTTPQueryItem: Hashable, Sendable {
    /// The decoded name.
    public var name: String
    /// The decoded value; empty when the pair had no `=`.
    public var value: String

    /// Creates a query item.
    ///
    /// - Parameters:
    ///   - name: The decoded name.
    ///   - value: The decoded value.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
