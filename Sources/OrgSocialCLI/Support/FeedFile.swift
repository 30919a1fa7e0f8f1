import Foundation
import OrgSocial
import OrgSocialClient
import SystemSupport

/// Reading feeds from disk (or standard input) and writing changed feeds back safely.
enum FeedFile {
    /// The path that stands for standard input.
    static let standardInputPath = "-"

    /// Reads a file's raw bytes; `-` reads standard input.
    /// - Parameters:
    ///   - path: the file.
    ///   - context: provides standard input.
    /// - Returns: the bytes, unchanged.
    /// - Throws: ``CLIError/cannotRead(path:reason:)`` saying why and what to do.
    static func readBytes(at path: String, in context: CommandContext) throws -> [UInt8] {
        if path == standardInputPath {
            do {
                return try context.readStandardInput()
            } catch {
                throw CLIError.cannotRead(path: path, reason: error.localizedDescription)
            }
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CLIError.cannotRead(
                path: path,
                reason:
                    "no such file. Check the path, or create a feed with 'orgsocial init --file \(path) --title … --nick …'."
            )
        }
        guard !isDirectory.boolValue else {
            throw CLIError.cannotRead(path: path, reason: "it is a folder. Give the path of a social.org file.")
        }
        do {
            // Straight into the array: going through `Data` held the file twice (a big feed's peak memory).
            // A pipe or a device (`<(…)`, `/dev/stdin`) is read as a stream, as `-` is.
            guard let (bytes, _) = try AtomicFile.read(path, readsStreams: true) else {
                throw CLIError.cannotRead(path: path, reason: "no such file (it disappeared while being read).")
            }
            return bytes
        } catch let error as SystemCallError {
            let reason =
                FileManager.default.isReadableFile(atPath: path)
                ? error.description : "permission denied. Check the file's permissions."
            throw CLIError.cannotRead(path: path, reason: reason)
        }
    }

    /// Reads and parses a feed.
    /// - Parameters:
    ///   - path: the file; `-` reads standard input.
    ///   - context: provides standard input.
    ///   - requiringFeed: whether to refuse a file that is not an Org Social feed (see
    ///     ``notAFeedReason(_:)``), as the editing commands do.
    /// - Returns: the parsed feed (lossless: it serializes back to the same bytes).
    /// - Throws: ``CLIError/cannotRead(path:reason:)``, ``CLIError/notAFeed(path:reason:)``.
    static func read(at path: String, in context: CommandContext, requiringFeed: Bool = false) throws -> Feed {
        let bytes = try readBytes(at: path, in: context)
        if requiringFeed, let reason = notAFeedReason(bytes) {
            throw CLIError.notAFeed(path: path, reason: reason)
        }
        return OrgSocialParser().parse(bytes: bytes)
    }

    /// Checks, before a change is published, that the file can be read, is a feed (when `requiringFeed`)
    /// and can be written afterwards; the change itself reads the file again under its lock.
    /// - Parameters:
    ///   - path: the file.
    ///   - context: provides standard input.
    ///   - requiringFeed: whether to refuse a file that is not an Org Social feed (``notAFeedReason(_:)``).
    /// - Throws: ``CLIError/cannotRead(path:reason:)``, ``CLIError/notAFeed(path:reason:)``,
    ///   ``CLIError/readOnlyFile(path:)``.
    static func checkEditable(at path: String, in context: CommandContext, requiringFeed: Bool) throws {
        let bytes = try readBytes(at: path, in: context)
        if requiringFeed, let reason = notAFeedReason(bytes) {
            throw CLIError.notAFeed(path: path, reason: reason)
        }
        try AtomicFile.checkWritable(path)
    }

    /// Reads a feed from a file, from standard input (`-`), or from an http(s) URL through the feed
    /// fetcher and its cache (`$XDG_CACHE_HOME/orgsocial/feeds`, conditional requests), as `fetch` does.
    /// - Parameters:
    ///   - location: a path, `-`, or a feed URL.
    ///   - context: provides standard input, the environment and the network.
    /// - Returns: the parsed feed (lossless).
    /// - Throws: ``CLIError/cannotRead(path:reason:)`` saying why.
    static func read(fileOrURL location: String, in context: CommandContext) async throws -> Feed {
        guard FeedFileOptions.isHTTPURL(location), let url = URL(string: location) else {
            return try read(at: location, in: context)
        }
        do {
            return try await ReadingOptions.makeFetcher(in: context).fetch(url).feed
        } catch let error as CancellationError {
            throw error
        } catch {
            throw CLIError.cannotRead(path: location, reason: error.localizedDescription)
        }
    }

    /// Why `bytes` are not an Org Social feed that an editing command may change, or `nil` when they are.
    ///
    /// A feed is an empty (or blank) file, or UTF-8 text with at least one Org keyword line
    /// (`#+TITLE:`, `#+NICK:`, any `#+KEY: value`, `org-social-spec.md` §3) or a `* Posts` heading (§4).
    /// Anything else (an HTML page, a Markdown file, plain notes, binary data) is refused, so that a
    /// wrong `--file` is not edited.
    /// - Parameter bytes: the file's content.
    /// - Returns: a short reason ("it looks like an HTML page"), or `nil` for a feed.
    static func notAFeedReason(_ bytes: [UInt8]) -> String? {
        guard String(validating: bytes, as: UTF8.self) != nil else { return "it is not UTF-8 text" }
        // Line by line, stopping at the first sign of a feed (its first lines, for a feed), so that a 20 MB
        // feed is not split whole.
        let lines = Self.lines(of: bytes).lazy.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard let first = lines.first(where: { _ in true }) else { return nil }
        for line in lines {
            if line.range(of: #"^#\+[A-Za-z_][A-Za-z0-9_-]*:"#, options: .regularExpression) != nil { return nil }
            if line.range(of: #"^\*\s+posts\s*$"#, options: [.regularExpression, .caseInsensitive]) != nil {
                return nil
            }
        }
        let content = Array(lines)
        if first.hasPrefix("<") { return "it looks like an HTML or XML page" }
        if content.contains(where: { $0.range(of: #"^#{1,6}\s"#, options: .regularExpression) != nil }) {
            return "it looks like a Markdown file"
        }
        return "it has no Org keywords (#+TITLE:, #+NICK:) and no '* Posts' heading"
    }

    /// The environment variable that sets how many seconds a writer waits for a feed file's lock.
    static let lockWaitVariable = "ORGSOCIAL_LOCK_WAIT"

    /// The feed file at `path` as the library's ``LocalFeedFile``: writes to it take its lock, waiting
    /// `$ORGSOCIAL_LOCK_WAIT` seconds (10 by default) for another writer.
    /// - Parameters:
    ///   - path: the file.
    ///   - context: the environment.
    /// - Returns: the file.
    /// - Throws: ``CLIError/invalidEnvironment(name:value:reason:)`` for a bad `$ORGSOCIAL_LOCK_WAIT`.
    static func local(_ path: String, in context: CommandContext) throws -> LocalFeedFile {
        let seconds = try SettingResolver(environment: context.environment).value(
            option: nil, variable: lockWaitVariable, default: 10, as: .integer(0...3600, of: "seconds"))
        return LocalFeedFile(path: path, lockWait: .seconds(seconds), holder: "orgsocial")
    }

    /// The CLI's error for a local file's failure: the read and write errors every command reports, or
    /// the lock's own error (which ``ErrorAdvice`` completes).
    /// - Parameter error: what ``LocalFeedFile`` threw.
    /// - Returns: the error to throw.
    static func cliError(_ error: LocalFeedFileError) -> any Error {
        switch error {
        case .noFile(let path):
            return CLIError.cannotRead(
                path: path,
                reason:
                    "no such file. Check the path, or create a feed with 'orgsocial init --file \(path) --title … --nick …'."
            )
        case .unreadable(let path, let reason): return CLIError.cannotRead(path: path, reason: reason)
        case .readOnly(let path): return CLIError.readOnlyFile(path: path)
        case .unwritable(let path, let reason): return CLIError.cannotWrite(path: path, reason: reason)
        case .locked, .lockFailed, .keptChanging: return error
        }
    }

    /// The lines of `bytes` (split at LF, CR and CR LF), made one at a time as they are iterated.
    private static func lines(of bytes: [UInt8]) -> UnfoldSequence<String, Int> {
        sequence(state: 0) { start in
            guard start < bytes.count else { return nil }
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "\n"), bytes[end] != UInt8(ascii: "\r") { end += 1 }
            let line = String(decoding: bytes[start..<end], as: UTF8.self)
            start =
                end
                + (end + 1 < bytes.count && bytes[end] == UInt8(ascii: "\r") && bytes[end + 1] == UInt8(ascii: "\n")
                    ? 2 : 1)
            return line
        }
    }

    /// Reads the feed at `path`, lets `change` edit it, and writes the result atomically, all under the
    /// file's lock (``LocalFeedFile/update(_:)``), so that two commands writing one file at once both land.
    ///
    /// Nothing is written when `change` throws, when the bytes did not change, or when the change adds
    /// format errors (errors the validator did not report before). Warnings the change adds are reported
    /// on standard error and the file is written.
    /// - Parameters:
    ///   - path: the feed file.
    ///   - context: for reporting warnings.
    ///   - requiringFeed: whether to refuse a file that is not an Org Social feed (``notAFeedReason(_:)``).
    ///   - change: edits the feed and returns what the command prints.
    /// - Returns: what `change` returned.
    /// - Throws: ``CLIError``, `LocalFeedFileError` for the lock, or whatever `change` throws
    ///   (`OrgSocialError`).
    static func modify<Result>(
        at path: String, in context: CommandContext, requiringFeed: Bool = false,
        _ change: (inout Feed) throws -> Result
    ) throws -> Result {
        if path == standardInputPath {
            throw CLIError.cannotWrite(path: path, reason: "standard input cannot be changed; give a file with --file")
        }
        let file = try local(path, in: context)
        let (result, warnings): (Result, [Diagnostic])
        do {
            (result, warnings) = try file.update { bytes in
                if requiringFeed, let reason = notAFeedReason(bytes) {
                    throw CLIError.notAFeed(path: path, reason: reason)
                }
                var feed = OrgSocialParser().parse(bytes: bytes)
                let outcome = try checkedChange(of: &feed, reportingAs: path, change)
                return (outcome, feed.bytes)
            }
        } catch let error as LocalFeedFileError {
            throw cliError(error)
        }
        for warning in warnings {
            context.report("warning: \(path):\(warning.line):\(warning.column): \(warning.message) [\(warning.code)]")
        }
        return result
    }

    /// Lets `change` edit `feed`, refusing the change when it adds format errors (``Feed/applyChecked(_:)``).
    /// - Parameters:
    ///   - feed: the feed, changed in place (left as it was when the change is refused).
    ///   - location: the file or URL named in the error.
    ///   - change: the edit.
    /// - Returns: what `change` returned, and the warnings the change added.
    /// - Throws: ``CLIError/changeAddsErrors(path:problems:)``, or what `change` throws.
    static func checkedChange<Result>(
        of feed: inout Feed, reportingAs location: String, _ change: (inout Feed) throws -> Result
    ) throws -> (Result, [Diagnostic]) {
        do {
            let (result, warnings) = try feed.applyChecked(change)
            return (result, warnings)
        } catch let refusal as FeedChangeAddsErrors {
            throw CLIError.changeAddsErrors(path: location, problems: refusal.errors.map(\.description))
        }
    }
}
