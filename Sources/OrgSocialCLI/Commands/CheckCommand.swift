import Foundation
import OrgSocial

/// `orgsocial check <files-or-urls> ... [--json] [--strict]`: validates feeds and reports every
/// diagnostic.
struct CheckCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "check",
            abstract: "Validate feeds and report their errors and warnings.",
            discussion: """
                Prints one line per problem, 'file:line:column: severity: message [code]', followed by \
                a suggestion when there is one, and a summary on standard error. Exits with 0 when no \
                file has errors, 1 otherwise.
                """,
            arguments: [
                ArgumentDefinition(
                    name: "files",
                    help: "The social.org files to check; '-' reads standard input; http:// and https:// URLs are "
                        + "downloaded through the cache, as 'fetch' does.", isRepeating: true)
            ],
            options: [
                .flag(
                    "json",
                    help:
                        "Print the problems as a JSON array (file, line, column, severity, code, message, suggestion); "
                        + "a file that cannot be read is an error with code 'unreadable-file' and no line."),
                .flag("strict", help: "Treat warnings as errors."),
            ])
    }

    /// The files to check.
    var paths: [String]
    /// `--json`.
    var printsJSON: Bool
    /// `--strict`.
    var isStrict: Bool

    init(parsing arguments: ParsedArguments) throws {
        paths = arguments.arguments("files")
        printsJSON = arguments.flag("json")
        isStrict = arguments.flag("strict")
    }

    func validate() throws {
        if paths.filter({ $0 == FeedFile.standardInputPath }).count > 1 {
            throw CLIError.validation("Standard input ('-') can be checked only once; give it once.")
        }
    }

    func run(in context: CommandContext) async throws {
        var reports: [Report] = []
        var unreadable: [Report] = []
        for path in paths {
            let file = path == FeedFile.standardInputPath ? "<stdin>" : path
            let feed: Feed
            do {
                feed = try await FeedFile.read(fileOrURL: path, in: context)
            } catch let error as CLIError {
                context.report("Error: \(error.localizedDescription)")
                unreadable.append(Report(file: file, unreadable: error.localizedDescription))
                continue
            }
            for diagnostic in FeedValidator().validate(feed) {
                var diagnostic = diagnostic
                if isStrict { diagnostic.severity = .error }
                reports.append(Report(file: file, diagnostic: diagnostic))
            }
        }
        if printsJSON {
            let all = unreadable + reports
            context.write(all.isEmpty ? "[]\n" : try JSONOutput.text(all))
        } else {
            for report in reports {
                guard let d = report.diagnostic else { continue }
                context.writeLine(
                    "\(report.file):\(d.line):\(d.column): \(d.severity.rawValue): \(d.message) [\(d.code)]")
                if let suggestion = d.suggestion { context.writeLine("  suggestion: \(suggestion)") }
            }
        }
        // A summary diagnostic stands for the problems it leaves out, so the totals are real counts.
        let diagnostics = reports.compactMap(\.diagnostic)
        let found = diagnostics.lazy.map(\.problemCount).reduce(0, +)
        let errorsFound = diagnostics.lazy.filter { $0.severity == .error }.map(\.problemCount).reduce(0, +)
        let errors = errorsFound + unreadable.count
        let warnings = found - errorsFound
        let files = paths.count == 1 ? "1 file" : "\(paths.count) files"
        context.report("\(files) checked: \(Self.countText(errors: errors, warnings: warnings))")
        if errors > 0 { throw CLIError.exit(1) }
    }

    /// `1 error, 3 warnings`.
    static func countText(errors: Int, warnings: Int) -> String {
        "\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")"
    }

    /// One problem of one file, as `--json` writes it: a diagnostic, or the reason the file could not be read
    /// (code `unreadable-file`, without `line` and `column`).
    struct Report: Encodable {
        /// The code of a file that could not be read.
        static let unreadableCode = "unreadable-file"

        /// The file as named on the command line.
        var file: String
        /// The diagnostic, or `nil` when the file could not be read.
        var diagnostic: Diagnostic?
        /// Why the file could not be read, when it could not.
        var failure: String?

        /// A diagnostic of a file that was read.
        init(file: String, diagnostic: Diagnostic) {
            self.file = file
            self.diagnostic = diagnostic
        }

        /// A file that could not be read, and why.
        init(file: String, unreadable reason: String) {
            self.file = file
            failure = reason
        }

        private enum CodingKeys: String, CodingKey {
            case file, line, column, severity, code, message, suggestion
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(file, forKey: .file)
            // Absent values are left out, as in every other JSON the tool prints (no `null`).
            try container.encodeIfPresent(diagnostic?.line, forKey: .line)
            try container.encodeIfPresent(diagnostic?.column, forKey: .column)
            try container.encode(diagnostic?.severity.rawValue ?? Diagnostic.Severity.error.rawValue, forKey: .severity)
            try container.encode(diagnostic?.code.rawValue ?? Self.unreadableCode, forKey: .code)
            try container.encode(diagnostic?.message ?? failure ?? "", forKey: .message)
            try container.encodeIfPresent(diagnostic?.suggestion, forKey: .suggestion)
        }
    }
}
