import Foundation

/// JSON written by the tool: sorted keys, indented, slashes unescaped, so output is stable byte for byte.
enum JSONOutput {
    /// Encodes a value as stable, pretty-printed JSON text ending with a line break.
    /// - Throws: `EncodingError` when the value cannot be encoded.
    static func text(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self) + "\n"
    }
}
