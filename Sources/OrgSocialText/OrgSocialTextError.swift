public import Foundation

/// What can go wrong converting text between Org and the web.
public enum OrgSocialTextError: Error, Equatable, LocalizedError {
    /// A server's character limit leaves no room for a part of a thread: the content warning and the
    /// `(i/n)` marker fill it, or a URL (which counts as the server's characters per URL) does not fit.
    case limitTooSmall(maxCharacters: Int, needed: Int)

    /// What went wrong and what to do.
    public var errorDescription: String? {
        switch self {
        case .limitTooSmall(let maxCharacters, let needed):
            "Cannot split the post into statuses of at most \(maxCharacters) characters: one part needs at least "
                + "\(needed) (content warning, the (i/n) marker and the longest unbreakable piece, such as a URL). "
                + "Shorten the content warning, or check the server's max_characters."
        }
    }
}
