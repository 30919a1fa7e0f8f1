/// Writes JSON text piece by piece, in a ``JSONValue/Style``, without building the value first: for
/// output too large to hold as a ``JSONValue`` (a feed's posts), taken out in chunks as it grows.
///
/// Open containers with ``beginObject()`` and ``beginArray()``, name each object member with
/// ``key(_:)`` before its value, and close them in reverse order. The text is exactly what
/// ``JSONValue/encoded(style:)`` gives for the same value.
///
/// ```swift
/// var writer = JSONStreamWriter(style: .foundationPretty)
/// writer.beginObject()
/// writer.key("name")
/// writer.string("ana")
/// writer.key("posts")
/// writer.beginArray()
/// writer.int(1)
/// writer.endArray()
/// writer.endObject()
/// let bytes = writer.takeText()  // {\n  "name" : "ana",\n  "posts" : [\n    1\n  ]\n}
/// ```
package struct JSONStreamWriter: Sendable {
    /// The layout and escaping.
    package let style: JSONValue.Style
    /// The text written and not yet taken.
    package private(set) var text: [UInt8] = []
    /// The nesting level of the first value: its members are indented as if it sat that deep.
    private let baseDepth: Int
    /// For each open container: whether it is an object, and whether it has a member yet.
    private var open: [(isObject: Bool, hasMembers: Bool)] = []
    private let keySeparator: [UInt8]
    private let itemSeparator: [UInt8]
    /// A line break and enough spaces for the deepest indent written so far: each break appends a prefix.
    private var lineBreak: [UInt8] = [UInt8(ascii: "\n")]
    /// Where ``key(literal:)`` puts a member's start together.
    private var scratch: [UInt8] = Array(repeating: 0, count: 64)

    /// Makes a writer.
    /// - Parameters:
    ///   - style: The layout and escaping.
    ///   - baseDepth: How deep the first value sits in a document written around it (for its indent).
    package init(style: JSONValue.Style, baseDepth: Int = 0) {
        self.style = style
        self.baseDepth = baseDepth
        keySeparator = Array(style.keySeparator.utf8)
        itemSeparator =
            style.indent == nil ? Array(style.itemSeparator.utf8) : Array(style.itemSeparator.utf8.prefix(1))
    }

    /// The text written so far, handed over (the writer keeps its buffer's capacity).
    /// - Returns: The UTF-8 bytes written since the last take.
    package mutating func takeText() -> [UInt8] {
        let taken = text
        text.removeAll(keepingCapacity: true)
        return taken
    }

    /// Hands the text written so far to `write` once there are at least `threshold` bytes of it.
    /// - Parameters:
    ///   - threshold: How many bytes to gather before writing.
    ///   - write: Receives the bytes.
    package mutating func flush(ifAtLeast threshold: Int, to write: ([UInt8]) throws -> Void) rethrows {
        guard text.count >= threshold else { return }
        try write(text)
        text.removeAll(keepingCapacity: true)
    }

    /// Appends `text` as it is, for the document written around the values (the writer's layout does not
    /// take it into account).
    /// - Parameter text: UTF-8 text that keeps the document valid JSON.
    package mutating func raw(_ text: String) {
        self.text += text.utf8
    }

    // MARK: - Containers

    /// Opens an object.
    package mutating func beginObject() {
        beginValue()
        text.append(UInt8(ascii: "{"))
        open.append((true, false))
    }

    /// Closes the innermost container, which must be an object.
    package mutating func endObject() { end(UInt8(ascii: "}")) }

    /// Opens an array.
    package mutating func beginArray() {
        beginValue()
        text.append(UInt8(ascii: "["))
        open.append((false, false))
    }

    /// Closes the innermost container, which must be an array.
    package mutating func endArray() { end(UInt8(ascii: "]")) }

    /// Starts the next member of the innermost object: its name, then the key separator.
    /// - Parameter name: The member's name.
    package mutating func key(_ name: String) {
        precondition(open.last?.isObject == true, "A key outside an object")
        startMember()
        style.writeString(name, into: &text)
        keySeparator.withUnsafeBufferPointer { text.append(contentsOf: $0) }
    }

    /// Starts the next member of the innermost object, named by a literal: quoted as it is, without the
    /// escape scan (member names written this way are plain ASCII words; debug builds check it).
    /// - Parameter name: The member's name: ASCII letters, digits and punctuation other than `"` and `\`.
    package mutating func key(literal name: StaticString) {
        precondition(open.last?.isObject == true, "A key outside an object")
        let index = open.count - 1
        let separated = open[index].hasMembers
        open[index].hasMembers = true
        let indent = style.indent.map { $0 * (baseDepth + open.count) }
        name.withUTF8Buffer { name in
            assert(name.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") })
            // The separator, line break, indent, quoted name and key separator are put together in `scratch`
            // and appended in one piece: appending each costs more than writing it.
            let length =
                (separated ? itemSeparator.count : 0) + (indent.map { 1 + $0 } ?? 0) + name.count + 2
                + keySeparator.count
            if scratch.count < length { scratch = Array(repeating: 0, count: Swift.max(length, 2 * scratch.count)) }
            scratch.withUnsafeMutableBufferPointer { out in
                guard let start = out.baseAddress else { return }
                var cursor = start
                if separated {
                    for byte in itemSeparator {
                        cursor.initialize(to: byte)
                        cursor += 1
                    }
                }
                if let indent {
                    cursor.initialize(to: UInt8(ascii: "\n"))
                    (cursor + 1).update(repeating: UInt8(ascii: " "), count: indent)
                    cursor += 1 + indent
                }
                cursor.initialize(to: UInt8(ascii: "\""))
                if let base = name.baseAddress { (cursor + 1).update(from: base, count: name.count) }
                cursor += 1 + name.count
                cursor.initialize(to: UInt8(ascii: "\""))
                cursor += 1
                for byte in keySeparator {
                    cursor.initialize(to: byte)
                    cursor += 1
                }
                assert(cursor - start == length)
            }
            scratch.withUnsafeBufferPointer { text.append(contentsOf: UnsafeBufferPointer(rebasing: $0[..<length])) }
        }
    }

    // MARK: - Scalars

    /// Writes a string.
    package mutating func string(_ value: String) {
        beginValue()
        style.writeString(value, into: &text)
    }

    /// Writes the string whose UTF-8 bytes are `bytes` (invalid sequences replaced, as `String(decoding:as:)`
    /// does), without making it when it is ASCII.
    package mutating func string(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        beginValue()
        style.writeString(utf8: bytes, into: &text)
    }

    /// Writes an integer.
    package mutating func int(_ value: Int) {
        beginValue()
        text += String(value).utf8
    }

    /// Writes `true` or `false`.
    package mutating func bool(_ value: Bool) {
        beginValue()
        text += (value ? "true" : "false").utf8
    }

    /// Writes `null`.
    package mutating func null() {
        beginValue()
        text += "null".utf8
    }

    // MARK: - Layout

    /// Before a value: in an array, the separator and line break of a new element (in an object, ``key(_:)``
    /// did that already).
    private mutating func beginValue() {
        if let last = open.last, !last.isObject { startMember() }
    }

    private mutating func startMember() {
        let index = open.count - 1
        if open[index].hasMembers { text += itemSeparator }
        open[index].hasMembers = true
        breakLine(depth: baseDepth + open.count)
    }

    private mutating func end(_ close: UInt8) {
        guard let container = open.popLast() else { preconditionFailure("Closing a container that is not open") }
        if container.hasMembers {
            breakLine(depth: baseDepth + open.count)
        } else if style.breaksEmptyContainers, style.indent != nil {
            text.append(UInt8(ascii: "\n"))
            breakLine(depth: baseDepth + open.count)
        }
        text.append(close)
    }

    private mutating func breakLine(depth: Int) {
        guard let indent = style.indent else { return }
        let length = 1 + indent * depth
        if lineBreak.count < length {
            lineBreak += repeatElement(UInt8(ascii: " "), count: max(length, 2 * lineBreak.count) - lineBreak.count)
        }
        lineBreak.withUnsafeBufferPointer { text.append(contentsOf: UnsafeBufferPointer(rebasing: $0[..<length])) }
    }
}
