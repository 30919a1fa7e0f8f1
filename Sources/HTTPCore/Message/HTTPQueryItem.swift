/// One `name=value` pair from a request target's query string, percent-decoded.
package struct HTTPQueryItem: Hashable, Sendable {
    /// The decoded name.
    package var name: String
    /// The decoded value; empty when the pair had no `=`.
    package var value: String

    /// Creates a query item.
    ///
    /// - Parameters:
    ///   - name: The decoded name.
    ///   - value: The decoded value.
    package init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
