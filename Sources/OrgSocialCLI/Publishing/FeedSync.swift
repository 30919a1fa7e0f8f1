import Foundation
import OrgSocial
import OrgSocialClient
import SystemSupport

/// `orgsocial sync` and `publish --merge`: the command-line face of ``FeedSynchronizer``, which merges
/// the remote feed into the local file against the version *this file* last agreed on with it, publishes
/// the result with `If-Match` and writes it to the file.
///
/// Conflicts are printed in `git`'s layout; nothing is written or published then. Everything else is
/// reported on standard error in one line that says what came from the remote feed and what the upload
/// did to it in numbers.
struct FeedSync {
    /// The local feed file.
    let path: String
    /// Where and how the feed is published.
    let target: any PublishDestination
    /// What to do with conflicts.
    let resolution: FeedMerge.Resolution
    /// `--verbose` and `--json`.
    var output = WriteReporter()

    /// The synchronizer for a file and its destination, with the bases of the command's environment.
    static func synchronizer(path: String, target: any PublishDestination, in context: CommandContext) throws
        -> FeedSynchronizer
    {
        FeedSynchronizer(
            file: try FeedFile.local(path, in: context), destination: target,
            publisher: FeedPublisher(transport: context.makeTransport()),
            bases: MergeBaseStore(environment: context.environment))
    }

    /// Says on standard error what became of the local file when it changed during the command, and when
    /// the merge base could not be saved.
    /// - Parameters:
    ///   - localFile: what writing the result to the file did.
    ///   - baseNotSaved: why the base could not be saved, if it could not.
    ///   - path: the file.
    ///   - location: the feed's URL.
    ///   - context: for standard error.
    static func reportLocal(
        _ localFile: LocalFeedFile.Replacement, baseNotSaved: MergeBaseStoreError?, path: String, location: String,
        in context: CommandContext
    ) {
        switch localFile {
        case .replaced: break
        case .merged:
            context.report(
                "'\(path)' changed meanwhile; the published feed was merged into it, so both changes are kept. Run "
                    + "'orgsocial sync --file \(path)' to publish the other change too.")
        case .keptOtherChange(let conflicts):
            context.report(
                "warning: '\(path)' changed meanwhile in a way that conflicts with what was published to \(location) "
                    + "(\(conflicts.count) post(s) or keyword(s)); the file was left as it is. Run "
                    + "'orgsocial sync --file \(path)' to settle them.")
        }
        if let baseNotSaved {
            context.report("warning: " + ErrorAdvice.message(for: baseNotSaved))
        }
    }

    /// Runs the sync; prints the feed's URL (or with `--json` a ``WriteReport``) on standard output and what
    /// happened on standard error.
    /// - Parameter context: the environment and streams.
    /// - Throws: ``CLIError/mergeConflicts(count:path:url:)`` after printing the conflicts,
    ///   ``CLIError/remoteKeptChanging(path:url:)`` when the remote feed changed twice during the sync,
    ///   ``CLIError`` for the local file, `OrgSocialClientError` for the server.
    func run(in context: CommandContext) async throws {
        let location = target.feedURL.absoluteString
        try FeedFile.checkEditable(at: path, in: context, requiringFeed: true)
        let outcome: FeedSynchronizer.Outcome
        do {
            outcome = try await Self.synchronizer(path: path, target: target, in: context).sync(resolving: resolution)
        } catch FeedSyncError.conflicts(let conflicts, _) {
            context.write(Self.conflictReport(conflicts, path: path, url: location))
            throw CLIError.mergeConflicts(count: conflicts.count, path: path, url: location)
        } catch FeedSyncError.remoteKeptChanging {
            throw CLIError.remoteKeptChanging(path: path, url: location)
        } catch let error as FeedSyncError {
            guard case .unrelatedFeed = error else { throw error }
            throw CLIError.syncRefused(path: path, reason: error.localizedDescription)
        } catch let error as LocalFeedFileError {
            throw FeedFile.cliError(error)
        }
        report(outcome, in: context)
        Self.reportLocal(
            outcome.localFile, baseNotSaved: outcome.baseNotSaved, path: path, location: location, in: context)
        output.published(to: location, uploaded: outcome.uploaded)
        if outcome.uploaded { await output.announce(target.feedURL, in: context) }
        try output.finish(address: location, file: path, in: context)
    }

    /// What happened, on standard error.
    private func report(_ outcome: FeedSynchronizer.Outcome, in context: CommandContext) {
        let location = target.feedURL.absoluteString
        for renamed in outcome.renamedPosts {
            context.report(
                "CONFLICT (added on both sides with the same ID): post \(renamed.oldID); both kept, yours is now "
                    + "\(renamed.newID).")
        }
        if outcome.createdRemote {
            context.report(
                "Published \(path) (\(outcome.bytes.count) bytes) to \(location); there was no feed there "
                    + "(\(outcome.toRemote.summary)).")
            return
        }
        if !outcome.uploaded, outcome.fromRemote.isEmpty, outcome.settledConflicts.isEmpty,
            outcome.renamedPosts.isEmpty
        {
            context.report("Already in sync: \(location) has this file.")
            return
        }
        var parts: [String] = []
        let remote = Self.describe(outcome.fromRemote)
        parts.append(remote.isEmpty ? "nothing new from \(location)" : "from \(location): \(remote)")
        let resolved = outcome.settledConflicts.count
        if resolved > 0 {
            let side = resolution == .ours ? "yours" : "the remote's"
            parts.append("\(Self.count(resolved, "conflict")) settled with \(side)")
        }
        let upload =
            outcome.uploaded
            ? "published \(outcome.bytes.count) bytes (\(outcome.toRemote.summary))"
            : "nothing to upload"
        context.report("Synced \(path): " + parts.joined(separator: "; ") + "; \(upload).")
    }

    /// `1 post added, 2 edited, 1 deleted, keywords TITLE, FOLLOW`.
    static func describe(_ changes: FeedMerge.Changes) -> String {
        var parts: [String] = []
        if changes.addedPosts > 0 { parts.append("\(count(changes.addedPosts, "post")) added") }
        if changes.editedPosts > 0 { parts.append("\(count(changes.editedPosts, "post")) edited") }
        if changes.deletedPosts > 0 { parts.append("\(count(changes.deletedPosts, "post")) deleted") }
        if !changes.keywords.isEmpty {
            parts.append(
                (changes.keywords.count == 1 ? "keyword " : "keywords ")
                    + changes.keywords.map { "#+\($0)" }.joined(separator: ", "))
        }
        return parts.joined(separator: ", ")
    }

    private static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }

    /// The conflicts in `git`'s layout (`diff3` style): each one's local, base and remote versions
    /// between `<<<<<<<`, `|||||||`, `=======` and `>>>>>>>` lines.
    static func conflictReport(_ conflicts: [FeedMergeConflict], path: String, url: String) -> String {
        conflicts.map { conflict in
            func block(_ text: String?) -> String { (text ?? "(deleted)") + "\n" }
            var lines = "CONFLICT (\(conflict.kind.rawValue)): \(conflict.subject)\n"
            lines += "<<<<<<< yours (\(path))\n" + block(conflict.ours)
            if let base = conflict.base { lines += "||||||| last published from here\n" + base + "\n" }
            lines += "=======\n" + block(conflict.theirs) + ">>>>>>> remote (\(url))\n"
            if conflict.ours == nil, conflict.theirs != nil {
                lines +=
                    "To keep it deleted, settle any other conflict by editing it, then run 'orgsocial sync --ours "
                    + "--file \(path)' (yours wins every conflict, this deletion included).\n"
            }
            return lines
        }.joined(separator: "\n")
    }
}
