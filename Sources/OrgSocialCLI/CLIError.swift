import Foundation
import OrgSocial

/// Everything that can go wrong in the `orgsocial` tool itself. Library failures arrive as the libraries'
/// own errors and are reported with their description and the tool's advice (``ErrorAdvice``).
///
/// Usage errors (``isUsageError``) exit with code 2 and are followed by the command's usage line; the
/// others exit with code 1.
package enum CLIError: Error, Equatable, LocalizedError {
    // MARK: - Usage errors (exit code 2)

    /// A subcommand name that does not exist, with the nearest valid one.
    case unknownCommand(String, suggestion: String?)
    /// An option the command does not accept, with the nearest valid one.
    case unknownOption(String, suggestion: String?)
    /// An option that takes a value was last on the line or followed by another option.
    case missingValue(option: String)
    /// A required option is absent (`--file <file>`).
    case missingOption(String)
    /// A required positional argument is absent (`<file>`).
    case missingArgument(String)
    /// More positional values than the command takes.
    case unexpectedArgument(String)
    /// A single-valued option was given more than once.
    case duplicateOption(String)
    /// A flag was given a value (`--json=yes`).
    case flagWithValue(String, value: String)
    /// An option's or argument's value has the wrong form.
    case invalidValue(value: String, option: String, reason: String)
    /// The values don't make sense together; the text says what to change.
    case validation(String)

    // MARK: - Runtime errors (exit code 1)

    /// A file could not be read.
    case cannotRead(path: String, reason: String)
    /// A file could not be written.
    case cannotWrite(path: String, reason: String)
    /// An editing command's file is not an Org Social feed (a Markdown file, an HTML page, …).
    case notAFeed(path: String, reason: String)
    /// The file exists but is read-only (no write permission), so it is left alone.
    case readOnlyFile(path: String)
    /// `init` would overwrite a file.
    case fileExists(path: String)
    /// An environment variable holds an unusable value.
    case invalidEnvironment(name: String, value: String, reason: String)
    /// An edit would add format errors to the feed, so nothing was written.
    case changeAddsErrors(path: String, problems: [String])
    /// A referenced post is not a poll.
    case notAPoll(id: String)
    /// The configuration file cannot be read or holds something unusable.
    case invalidConfiguration(path: String, reason: String)
    /// There is nowhere to keep the configuration (no `HOME`, `XDG_CONFIG_HOME` or `ORGSOCIAL_CONFIG`).
    case noConfigurationLocation
    /// Publishing was asked for, but where or how to publish is not configured; the text says what is missing.
    case publishingNotConfigured(String)
    /// `publish`: uploading would undo changes made elsewhere (`reason` says which), or the remote feed
    /// has nothing in common with the file (`unrelated`).
    case publishRefused(path: String, reason: String, unrelated: Bool)
    /// `publish` or `sync`: the remote feed changed during each attempt to replace it.
    case remoteKeptChanging(path: String, url: String)
    /// `sync`: the merge found conflicts (already printed), so nothing was written or published.
    case mergeConflicts(count: Int, path: String, url: String)
    /// `--publish`: the local file has changes that are not on the server.
    case unpublishedLocalChanges(path: String, url: String, wasPublishedFromHere: Bool)
    /// `sync` refused to merge a file into a feed it has nothing in common with.
    case syncRefused(path: String, reason: String)
    /// An editing command changed the local file, but publishing the change failed.
    case savedButNotPublished(path: String, reason: String)
    /// `signup`: the configuration already holds a vfile.
    case accountExists(path: String, publicURL: String)
    /// `signup` succeeded but its vfile could not be saved; the vfile is shown so that it is not lost.
    case vfileNotSaved(path: String, reason: String, vfile: String)
    /// A command needs the reader's feed URL and none is configured; `purpose` says what it is needed for.
    case feedURLNeeded(purpose: String)
    /// `config get`: the setting has no value anywhere (environment, file, default).
    case settingNotSet(key: String, environmentName: String?)
    /// The command already reported its failure (e.g. `check` found errors); exit with this code silently.
    case exit(Int32)

    /// Whether this is a usage error (exit code 2, usage line shown).
    package var isUsageError: Bool {
        switch self {
        case .unknownCommand, .unknownOption, .missingValue, .missingOption, .missingArgument, .unexpectedArgument,
            .duplicateOption, .flagWithValue, .invalidValue, .validation, .feedURLNeeded:
            true
        case .cannotRead, .cannotWrite, .notAFeed, .readOnlyFile, .fileExists, .invalidEnvironment, .changeAddsErrors,
            .notAPoll,
            .invalidConfiguration, .noConfigurationLocation, .publishingNotConfigured, .publishRefused,
            .remoteKeptChanging, .mergeConflicts, .unpublishedLocalChanges, .syncRefused, .savedButNotPublished,
            .accountExists, .vfileNotSaved, .settingNotSet, .exit:
            false
        }
    }

    /// The exit code the tool ends with.
    package var exitCode: Int32 {
        if case .exit(let code) = self { return code }
        return isUsageError ? 2 : 1
    }

    /// The message printed after `Error: `: what failed, the token or file concerned, and what to do.
    package var errorDescription: String? {
        switch self {
        case .unknownCommand(let name, let suggestion):
            "Unknown command '\(name)'" + (suggestion.map { ". Did you mean '\($0)'?" } ?? "")
        case .unknownOption(let name, let suggestion):
            "Unknown option '\(name)'" + (suggestion.map { ". Did you mean '\($0)'?" } ?? "")
        case .missingValue(let option):
            "Missing value for '\(option)'"
        case .missingOption(let option):
            "Missing expected argument '\(option)'"
        case .missingArgument(let argument):
            "Missing expected argument '\(argument)'"
        case .unexpectedArgument(let value):
            "Unexpected argument '\(value)'"
        case .duplicateOption(let option):
            "The option '\(option)' was given more than once; give it once."
        case .flagWithValue(let option, let value):
            "The option '\(option)' does not take any value, but '\(value)' was specified."
        case .invalidValue(let value, let option, let reason):
            "The value '\(value)' is invalid for '\(option)'. \(reason)"
        case .validation(let message):
            message
        case .cannotRead(let path, let reason):
            "Cannot read '\(path)': \(reason)"
        case .cannotWrite(let path, let reason):
            "Cannot write '\(path)': \(Self.clause(reason)). Check that the folder exists and is writable; the file "
                + "was not changed."
        case .notAFeed(let path, let reason):
            "'\(path)' does not look like an Org Social feed: \(reason), so it was not changed. Give the path of "
                + "your social.org file, create one with 'orgsocial init --file <file> --title <title> --nick <nick>', "
                + "or pass --force to change this file anyway."
        case .readOnlyFile(let path):
            "'\(path)' is read-only, so it was not changed. Make it writable first ('chmod u+w \(path)') if you "
                + "mean to change it."
        case .fileExists(let path):
            "'\(path)' already exists. Pass --force to replace it, or choose another --file."
        case .invalidEnvironment(let name, let value, let reason):
            "The environment variable \(name) is '\(value)': \(reason)"
        case .changeAddsErrors(let path, let problems):
            "Nothing was written to '\(path)': the change would add these errors:\n"
                + problems.map { "  " + $0 }.joined(separator: "\n")
        case .notAPoll(let id):
            "The post '\(id)' is not a poll (it has no :POLL_END:). Vote with --post <feed URL>#<poll ID>."
        case .invalidConfiguration(let path, let reason):
            "The configuration file '\(path)' cannot be used: \(Self.clause(reason)). Fix it, or delete it and run "
                + "'orgsocial signup' again."
        case .noConfigurationLocation:
            "There is nowhere to keep the configuration: HOME is not set. Set XDG_CONFIG_HOME or ORGSOCIAL_CONFIG."
        case .publishingNotConfigured(let message):
            message
        case .publishRefused(let path, let reason, let unrelated):
            Self.clause(reason)
                + (unrelated
                    ? ". Check the feed URL (--feed-url, ORGSOCIAL_FEED_URL or \"feedURL\") and the file, or pass "
                        + "--force to replace that feed with '\(path)'."
                    : ". Run 'orgsocial sync --file \(path)' to merge those changes into your file and publish, or "
                        + "pass --force to replace the remote feed with yours.")
        case .remoteKeptChanging(let path, let url):
            "The feed at \(url) changed while it was being replaced, twice; nothing was lost. Run "
                + "'orgsocial sync --file \(path)' again when nobody else is publishing it."
        case .mergeConflicts(let count, let path, let url):
            (count == 1 ? "1 post or keyword was" : "\(count) posts or keywords were")
                + " changed differently in '\(path)' and at \(url) (shown above), so nothing was written or "
                + "published. Edit each one in '\(path)' to read as you want it and run 'orgsocial sync' again "
                + "(your edit settles it while the remote version stays as shown), or keep one side for every "
                + "conflict with 'orgsocial sync --ours' (yours, also for posts you deleted) or '--theirs' "
                + "(the remote's)."
        case .unpublishedLocalChanges(let path, let url, let wasPublishedFromHere):
            "The change was saved in '\(path)' but not published: "
                + (wasPublishedFromHere
                    ? "the file has other changes made since it was last published to or synced with \(url), "
                    : "the file differs from the feed at \(url) and was never published or synced from here, ")
                + "and applying the change there alone would replace them. Run 'orgsocial sync --file \(path)' to "
                + "merge both and publish everything."
        case .syncRefused(let path, let reason):
            Self.clause(reason)
                + ". Check the feed URL (--feed-url, ORGSOCIAL_FEED_URL or \"feedURL\") and --file; to replace that "
                + "feed with '\(path)' on purpose, run 'orgsocial publish --force --file \(path)'."
        case .savedButNotPublished(let path, let reason):
            "The change was saved in '\(path)' but not published: "
                + Self.clause(reason) + ". Fix that, then run "
                + "'orgsocial sync --file \(path)' to publish it."
        case .accountExists(let path, let publicURL):
            "'\(path)' already holds a vfile, for \(publicURL). Signing up again would replace it, and a lost "
                + "vfile cannot be recovered. Keep a copy of it, then pass --force."
        case .vfileNotSaved(let path, let reason, let vfile):
            "Signed up, but the vfile could not be saved in '\(path)': \(Self.clause(reason)). Save it yourself now "
                + "(it cannot be recovered; keep it secret): \(vfile)"
        case .feedURLNeeded(let purpose):
            "\(Self.clause(purpose)), and no feed URL is configured. Give it with --feed-url URL, set "
                + "ORGSOCIAL_FEED_URL, or save it with 'orgsocial config set feedURL URL' ('orgsocial signup' "
                + "does it for a new feed)."
        case .settingNotSet(let key, let environmentName):
            "The setting '\(key)' has no value"
                + (environmentName.map { " (\($0) is not set, and the configuration file has none)" }
                    ?? " in the configuration file") + ". Set it with 'orgsocial config set \(key) <value>'."
        case .exit(let code):
            "The command failed with exit code \(code)."
        }
    }
}

extension CLIError {
    /// A reason as a clause to put a period after: without the final period(s) it may already have (the
    /// system's messages, such as "The file … doesn't exist.", end with one).
    /// - Parameter reason: the reason.
    /// - Returns: The reason without trailing periods.
    static func clause(_ reason: String) -> String {
        var text = reason
        while text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// Runs `compose`, which builds a post from the command line's values, and turns a malformed value it
    /// finds (``OrgSocial/OrgSocialError/invalidInput(field:value:reason:)``: a language, an emoji, an
    /// empty text, a poll's options or end) into a usage error (exit code 2), as for any other bad option.
    /// - Parameter compose: the composition, e.g. a `PostDraft` factory call.
    /// - Returns: what `compose` returned.
    /// - Throws: ``CLIError/validation(_:)`` with the library's message for invalid input; other errors as
    ///   they are.
    static func composing<Value>(_ compose: () throws -> Value) throws -> Value {
        do {
            return try compose()
        } catch let error as OrgSocialError {
            guard case .invalidInput = error else { throw error }
            throw CLIError.validation(ErrorAdvice.message(for: error))
        }
    }
}
