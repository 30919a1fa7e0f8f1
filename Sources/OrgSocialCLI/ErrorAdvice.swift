import Bridge
import FeedHosting
import Foundation
import OrgSocial
import OrgSocialClient
import Relay

/// What the tool adds to a library's error message: the command to run, the option or the environment
/// variable that fixes it. The libraries' messages describe the problem only, since an app that uses them
/// has no `orgsocial` commands or options; every error the tool prints goes through ``message(for:)``
/// (``CLI/reportFailure(_:context:)``, and the bridge's run records through ``message(_:for:)``).
enum ErrorAdvice {
    /// The error's message as the tool prints it: its description, then the advice, if any.
    /// - Parameter error: the error.
    /// - Returns: The message, without `Error: `.
    static func message(for error: any Error) -> String {
        message(error.localizedDescription, for: error)
    }

    /// `description`, then the advice for `error`, if any.
    /// - Parameters:
    ///   - description: how the error is described.
    ///   - error: the error.
    /// - Returns: The message.
    static func message(_ description: String, for error: any Error) -> String {
        guard let advice = advice(for: error) else { return description }
        return description + (description.hasSuffix("\n") ? "" : " ") + advice
    }

    /// The tool's advice for an error whose fix is a command, an option or an environment variable.
    /// - Parameter error: the error.
    /// - Returns: One or two sentences, or `nil` when the library's message says all there is to say.
    static func advice(for error: any Error) -> String? {
        switch error {
        case let error as BridgeError: advice(for: error)
        case let error as BridgeFeedError: advice(for: error)
        case OrgSocialError.postNotFound:
            "Run 'orgsocial show' to list them."
        case LocalFeedFileError.locked:
            "Let it finish and try again, or wait longer with \(FeedFile.lockWaitVariable)=SECONDS."
        case FeedSyncError.remoteErrors(_, _, let url):
            "Fix them where the feed is published ('orgsocial check \(url.absoluteString)' "
                + "lists them), then run 'orgsocial sync' again."
        case OrgSocialError.duplicatePostID:
            "Open the file in an editor and give one of them another ID (or remove one), then try again."
        case OrgSocialError.unclosedDrawer:
            "Add the missing ':END:' line in an editor ('orgsocial check' shows where), then try again."
        case OrgSocialError.invalidInput(field: "poll options", value: "", _):
            "Give each with --option."
        case OrgSocialClientError.unauthorized(let url, _) where url.contains("/repos/"):
            "The token comes from --publish-token, ORGSOCIAL_TOKEN or \"publish.token\" in the config; a GitHub "
                + "token needs Contents: Read and write on the repository (a classic token: repo, or public_repo), a "
                + "Codeberg or Forgejo token the write:repository scope."
        case OrgSocialClientError.unauthorized:
            "The token (a WebDAV password) comes from --publish-token, ORGSOCIAL_TOKEN or \"publish.token\" in the "
                + "config; a WebDAV user name from --publish-username or \"publish.username\"."
        case OrgSocialClientError.repositoryNotFound:
            "Check --publish-owner, --publish-repo, --publish-branch and --publish-path (or \"publish.owner\", "
                + "\"publish.repo\", \"publish.branch\", \"publish.path\"), and for a private repository that the "
                + "token may read it."
        case OrgSocialClientError.rateLimited:
            "Nothing was uploaded; run the command again then (a change saved in the file goes up with the next "
                + "write or 'orgsocial sync')."
        case OrgSocialClientError.vfileRejected:
            "The vfile comes from ORGSOCIAL_VFILE or \"publish.vfile\" in the config."
        case OrgSocialClientError.rejected:
            "Run 'orgsocial check' to see them in the file."
        case RelayServiceError.cannotOpenDatabase:
            "To use another file, give --db PATH."
        case RelayServiceError.databaseMissing:
            "Give the path of the relay's database with --db PATH (or $ORGSOCIAL_RELAY_DB), or create it by "
                + "starting a relay: 'orgsocial relay serve --db PATH'."
        case RelayServiceError.cannotReadRelayList:
            "Give another file with --relay-list, or leave it out to use the two public relays."
        case FeedHostingError.rootNotFound(let path):
            "Create it ('mkdir -p \(path)'), or pass an existing folder with --root."
        case FeedHostingError.rootNotAFolder:
            "Pass the folder that holds the feeds with --root."
        case FeedHostingError.cannotWrite(let path, _) where path.hasSuffix("/.orgsocial"):
            "To serve a root this user cannot write (a read-only mount), keep the node's state elsewhere with "
                + "--state-dir DIR."
        default:
            nil
        }
    }

    /// The advice for a feed that `relay add-feed` could not add, when the fix is an option.
    /// - Parameter addition: what adding the feed did.
    /// - Returns: The advice, or `nil`.
    static func advice(for addition: RelayFeedAddition) -> String? {
        guard addition.isRefusedForItsAddress else { return nil }
        return "To add a feed on a private address, give --allow-private-addresses "
            + "(or ORGSOCIAL_RELAY_ALLOW_PRIVATE_ADDRESSES=1)."
    }

    private static func advice(for error: BridgeError) -> String? {
        switch error {
        case .storage: "Check the path and its permissions, or give another one with --state."
        case .busy: "Let it finish, or wait longer with --wait SECONDS."
        case .accountExists(let name):
            "Choose another name with --name, or remove it first with 'orgsocial bridge remove-account \(name)'."
        case .unknownAccount: "See 'orgsocial bridge accounts' for the names."
        case .authorizationTimedOut: "Try --out-of-band or --token."
        case .cannotLock, .invalidValue, .unreadableImage: nil
        }
    }

    private static func advice(for error: BridgeFeedError) -> String? {
        switch error {
        case .noFile: "Check the path, or create the feed with 'orgsocial init'."
        case .readOnly:
            "Set a token with 'orgsocial config set token TOKEN' (or ORGSOCIAL_TOKEN), or give --file."
        case .file: nil
        }
    }
}
