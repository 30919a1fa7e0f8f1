/// What shell completion offers for an option's value or a positional argument, read from its
/// definition (``OptionDefinition/completion``, ``ArgumentDefinition/completion``), so that the scripts
/// `orgsocial completion` writes and the definitions never disagree.
enum ValueCompletion: Equatable {
    /// Nothing: free text such as a URL or a number.
    case none
    /// These words (the allowed values, the configuration keys, the shells).
    case words([String])
    /// File names.
    case files
    /// Folder names only.
    case folders

    /// The value names (`<file>`, `<path>`, …) that name a file.
    static let fileNames: Set<String> = ["file", "files", "path"]
    /// The value names that name a folder.
    static let folderNames: Set<String> = ["dir", "folder"]

    /// The completion of a value named `name` that takes only `allowedValues` (any value when empty).
    init(name: String, allowedValues: [String]) {
        if !allowedValues.isEmpty {
            self = .words(allowedValues)
        } else if Self.folderNames.contains(name) {
            self = .folders
        } else if Self.fileNames.contains(name) {
            self = .files
        } else {
            self = .none
        }
    }
}
