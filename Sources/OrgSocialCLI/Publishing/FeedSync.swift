import Foundation
import OrgSocial
import OrgSocialClient
import SystemSupport

/// `orgsocial sync` and `publish --merge`: merges the remote feed into the local file against the
/// version last published from here (``PublishedVersions``), then publishes the result with
/// `If-Match` and writes it to the local file.
///
/// The merge is ``FeedMerge`` (post by post, keyword by keyword). When it finds conflicts and no side
/// was chosen, they are printed in `git`'s layout and nothing is written or published. When the remote
/// feed changes between the read and the upload (`412`), the whole sync runs once more on the new
/// remote feed.
struct FeedSync {
    /// The local feed file.
    let path: String
    /// Where and how the feed is published.
    let target: PublishTarget
    /// What to do with conflicts.
    let resolution: FeedMerge.Resolution

    /// Runs the sync; prints the feed's URL on standard output and what happened on standard error.
    /// - Parameter context: the environment and streams.
    /// - Throws: ``CLIError/mergeConflicts(count:path:url:)`` after printing the conflicts,
    ///   ``CLIError/remoteChanged(url:publishedBefore:)`` when the remote feed changed twice during the
    ///   sync, ``CLIError`` for the local file, `OrgSocialClientError` for the server.
    func run(in context: CommandContext) async throws {
        let publisher = FeedPublisher(transport: context.makeTransport())
        let versions = PublishedVersions(environment: context.environment)
        let location = target.feedURL.absoluteString
        let local = try FeedFile.readBytes(at: path, in: context)
        if let reason = FeedFile.notAFeedReason(local) {
            throw CLIError.notAFeed(path: path, reason: reason)
        }
        try AtomicFile.checkWritable(path)

        for attempt in 1...2 {
            guard let remote = try await publisher.fetch(target.feedURL) else {
                do {
                    _ = try await target.upload(local, precondition: .noExistingFile, with: publisher)
                } catch OrgSocialClientError.conflict where attempt == 1 {
                    continue
                }
                versions.record(local, for: target.feedURL)
                context.writeLine(location)
                context.report("Published \(path) (\(local.count) bytes) to \(location); there was no feed there.")
                return
            }
            if remote.feed.bytes == local {
                versions.record(local, for: target.feedURL)
                context.writeLine(location)
                context.report("Already in sync: \(location) has this file.")
                return
            }
            let merge = FeedMerge(
                base: base(remote: remote.feed, versions: versions), ours: Feed(bytes: local), theirs: remote.feed,
                resolving: resolution)
            guard let merged = merge.feed else {
                context.write(Self.conflictReport(merge.conflicts, path: path, url: location))
                throw CLIError.mergeConflicts(count: merge.conflicts.count, path: path, url: location)
            }
            if merged.bytes != remote.feed.bytes {
                do {
                    _ = try await target.upload(
                        merged.bytes, precondition: remote.etag.map(WritePrecondition.matching) ?? .none,
                        with: publisher)
                } catch OrgSocialClientError.conflict {
                    if attempt == 1 { continue }
                    throw CLIError.remoteChanged(url: location, publishedBefore: true)
                }
            }
            if merged.bytes != local {
                try AtomicFile.write(merged.bytes, to: path)
            }
            versions.record(merged.bytes, for: target.feedURL)
            context.writeLine(location)
            report(merge, merged: merged, uploaded: merged.bytes != remote.feed.bytes, in: context)
            return
        }
    }

    /// The merge base: the copy of what was last published from here; else the remote feed itself when
    /// its digest is the one recorded (it is what was published); else nothing (a first sync).
    private func base(remote: Feed, versions: PublishedVersions) -> Feed {
        if let copy = versions.copy(for: target.feedURL) { return Feed(bytes: copy) }
        if versions.digest(for: target.feedURL) == PublishedVersions.digest(of: remote.bytes) { return remote }
        return .empty
    }

    /// One line on standard error saying what came from where.
    private func report(_ merge: FeedMerge, merged: Feed, uploaded: Bool, in context: CommandContext) {
        let location = target.feedURL.absoluteString
        var parts: [String] = []
        let remote = Self.describe(merge.changesFromTheirs)
        parts.append(remote.isEmpty ? "nothing new from \(location)" : "from \(location): \(remote)")
        let resolved = merge.conflicts.count
        if resolved > 0 {
            let side = resolution == .ours ? "yours" : "the remote's"
            parts.append("\(Self.count(resolved, "conflict")) settled with \(side)")
        }
        let outcome = uploaded ? "published \(merged.bytes.count) bytes" : "nothing to upload"
        context.report("Synced \(path): " + parts.joined(separator: "; ") + "; \(outcome).")
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
            return lines
        }.joined(separator: "\n")
    }
}
