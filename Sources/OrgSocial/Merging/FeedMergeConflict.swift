/// Something both sides changed in different ways since the base, so a three-way merge cannot choose:
/// a post (edited on both sides, edited on one and deleted on the other, or added on both with the
/// same ID and different text) or a single-valued header keyword.
///
/// The three versions are kept as text (`nil` where the item is absent), so that a tool can show them
/// the way `git` shows a conflict.
public struct FeedMergeConflict: Sendable, Hashable {
    /// What the conflict is about.
    public enum Subject: Sendable, Hashable, CustomStringConvertible {
        /// A post, by its ID as written (a post without an ID is named by its headline).
        case post(id: String)
        /// A header keyword, by its name in capitals (`TITLE`).
        case keyword(name: String)

        /// `post 2026-01-02T03:04:05+0000` or `keyword #+TITLE`.
        public var description: String {
            switch self {
            case .post(let id): "post \(id)"
            case .keyword(let name): "keyword #+\(name)"
            }
        }
    }

    /// How the two sides disagree.
    public enum Kind: String, Sendable, Hashable {
        /// Both sides changed it, differently.
        case editedOnBothSides = "edited on both sides"
        /// This side changed it, the other side deleted it.
        case editedHereDeletedThere = "edited here, deleted there"
        /// This side deleted it, the other side changed it.
        case deletedHereEditedThere = "deleted here, edited there"
        /// Both sides added it (absent from the base), differently.
        case addedOnBothSides = "added on both sides"
    }

    /// The post or keyword.
    public let subject: Subject
    /// The base version (last published from here), or `nil` when it was not there.
    public let base: String?
    /// This side's version (the local file), or `nil` when deleted.
    public let ours: String?
    /// The other side's version (the remote feed), or `nil` when deleted.
    public let theirs: String?

    /// Makes a conflict.
    /// - Parameters:
    ///   - subject: the post or keyword.
    ///   - base: the base version.
    ///   - ours: the local version.
    ///   - theirs: the remote version.
    public init(subject: Subject, base: String?, ours: String?, theirs: String?) {
        self.subject = subject
        self.base = base
        self.ours = ours
        self.theirs = theirs
    }

    /// How the two sides disagree, from which versions are present.
    public var kind: Kind {
        switch (base, ours, theirs) {
        case (nil, _, _): .addedOnBothSides
        case (_, nil, _): .deletedHereEditedThere
        case (_, _, nil): .editedHereDeletedThere
        default: .editedOnBothSides
        }
    }
}
