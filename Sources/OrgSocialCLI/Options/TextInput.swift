/// A text given on the command line, where `-` means "read it from standard input".
enum TextInput {
    /// The value that stands for standard input.
    static let standardInput = "-"

    /// The text itself, reading standard input for `-`.
    /// - Parameters:
    ///   - value: the option's value.
    ///   - context: provides standard input.
    /// - Returns: the text, without the line breaks that end standard input.
    /// - Throws: ``CLIError/cannotRead(path:reason:)`` when standard input cannot be read.
    static func resolve(_ value: String, in context: CommandContext) throws -> String {
        guard value == standardInput else { return value }
        var text = try context.readStandardInputText()
        while let last = text.last, last.isNewline { text.removeLast() }
        return text
    }
}
