import Foundation

/// Finds a program the way a shell does, without one: a name with a `/` is used as it is, any other is
/// looked up in the folders of `PATH`.
enum ExecutableSearch {
    /// The folders searched when `PATH` is unset.
    static let defaultPath = "/usr/local/bin:/usr/bin:/bin"

    /// The path of the executable file `program` names, or `nil` when there is none.
    /// - Parameters:
    ///   - program: a program name (`notify-send`) or path (`./hook`).
    ///   - path: the value of `PATH`; ``defaultPath`` when `nil`.
    /// - Returns: the file's path.
    static func path(of program: String, searching path: String?) -> String? {
        let files = FileManager.default
        if program.contains("/") { return files.isExecutableFile(atPath: program) ? program : nil }
        let folders = (path ?? defaultPath).split(separator: ":", omittingEmptySubsequences: true)
        return folders.map { "\($0)/\(program)" }.first { files.isExecutableFile(atPath: $0) }
    }
}
