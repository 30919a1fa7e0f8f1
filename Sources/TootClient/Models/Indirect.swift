/// A value stored out of line, so a ``Status`` can hold the ``Status`` it reblogs; encodes as the value.
public struct Indirect<Value: Codable & Sendable & Hashable>: Codable, Sendable, Hashable {
    private let storage: [Value]

    /// Wraps `value`.
    /// - Parameter value: the value.
    public init(_ value: Value) { storage = [value] }

    /// The value.
    public var value: Value { storage[0] }

    /// Decodes the value itself.
    /// - Parameter decoder: the decoder.
    /// - Throws: a decoding error when the value does not decode.
    public init(from decoder: any Decoder) throws { storage = [try Value(from: decoder)] }

    /// Encodes the value itself.
    /// - Parameter encoder: the encoder.
    /// - Throws: an encoding error from the encoder.
    public func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
}
