import Bridge

/// One account's push in `bridge push --json`.
struct PushReportJSON: Encodable {
    /// The account's name.
    var account: String
    /// The feed's URL.
    var feed: String
    /// Whether nothing was sent.
    var dryRun: Bool
    /// Per post: `postID`, `action`, `statuses` (`text`, `spoiler_text`, `characters`), `statusIDs`, `reason`.
    var entries: [PushEntry]
    /// Created, edited, deleted.
    var counts: RunCounts

    /// The JSON of a report.
    init(_ report: PushReport) {
        account = report.account
        feed = report.feed
        dryRun = report.dryRun
        entries = report.entries
        counts = report.counts
    }
}

/// `bridge push`'s text output.
enum PushReportText {
    /// Writes one account's report: a line per post, and with a dry run each status's text and length.
    /// - Parameters:
    ///   - report: the report.
    ///   - context: where to write.
    static func write(_ report: PushReport, to context: CommandContext) {
        let counts = report.counts
        let verb = report.dryRun ? "would push" : "pushed"
        context.writeLine(
            "\(report.account): \(verb) \(counts.pushed), edited \(counts.edited), deleted \(counts.deleted)"
                + ", skipped \(report.entries.filter { $0.action == .skip }.count)"
                + ", failed \(report.entries.filter { $0.action == .fail }.count)")
        for entry in report.entries {
            var line = "  \(entry.action.rawValue) \(entry.postID)"
            if !entry.statuses.isEmpty {
                line += " (\(entry.statuses.count) status\(entry.statuses.count == 1 ? "" : "es"))"
            }
            if let reason = entry.reason { line += ": \(reason)" }
            context.writeLine(line)
            guard report.dryRun else { continue }
            for (index, status) in entry.statuses.enumerated() {
                let warning = status.spoilerText.isEmpty ? "" : ", CW \"\(status.spoilerText)\""
                context.writeLine(
                    "    [\(index + 1)/\(entry.statuses.count)] \(status.characters) characters\(warning)")
                for textLine in status.text.split(separator: "\n", omittingEmptySubsequences: false) {
                    context.writeLine("      \(textLine)")
                }
            }
        }
    }
}
