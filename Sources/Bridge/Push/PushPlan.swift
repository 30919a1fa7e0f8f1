public import Foundation
public import TootClient

/// How `bridge push` treats a reply to someone else's post (`--replies`).
public enum ReplyPolicy: String, Sendable, Hashable, CaseIterable {
    /// Post it with a link to the post it answers.
    case link
    /// Leave it out.
    case skip
}

/// What `bridge push` may do: how many posts, from when, how replies and direct posts are treated.
public struct PushOptions: Sendable {
    /// The most new posts one run sends (`--max`, 20 by default); edits and deletes are not counted.
    public var maxNewPosts: Int
    /// Mirror posts from this time on (`--since`); `nil`: from when the account was added.
    public var since: Date?
    /// Mirror every post, however old (`--all`).
    public var all: Bool
    /// Print what would be sent and change nothing (`--dry-run`).
    public var dryRun: Bool
    /// Replies to others' posts (`--replies`).
    public var replies: ReplyPolicy
    /// Mirror `:VISIBILITY: mention` posts as direct statuses instead of leaving them out.
    public var mirrorsMentionOnlyPosts: Bool
    /// Reads an image a post links to, for upload; `nil` leaves images as links only.
    public var loadImage: (@Sendable (OrgImageTarget) async throws -> ImageFile)?
    /// The current time (poll durations, `--since` defaults).
    public var now: @Sendable () -> Date
    /// Only these posts (`post --everywhere`): nothing else is created, edited, deleted or pinned.
    public var onlyPostIDs: Set<String>?

    /// Makes options; the defaults are those of `orgsocial bridge push` without options.
    /// - Parameters:
    ///   - maxNewPosts: the most new posts per run.
    ///   - since: the earliest post to mirror.
    ///   - all: mirror every post.
    ///   - dryRun: change nothing.
    ///   - replies: replies to others.
    ///   - mirrorsMentionOnlyPosts: mirror direct posts.
    ///   - loadImage: reads linked images.
    ///   - now: the clock.
    public init(
        maxNewPosts: Int = 20, since: Date? = nil, all: Bool = false, dryRun: Bool = false,
        replies: ReplyPolicy = .link, mirrorsMentionOnlyPosts: Bool = false,
        loadImage: (@Sendable (OrgImageTarget) async throws -> ImageFile)? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.maxNewPosts = maxNewPosts
        self.since = since
        self.all = all
        self.dryRun = dryRun
        self.replies = replies
        self.mirrorsMentionOnlyPosts = mirrorsMentionOnlyPosts
        self.loadImage = loadImage
        self.now = now
    }
}

/// An image link of a post, as given to ``PushOptions/loadImage``.
public struct OrgImageTarget: Sendable, Hashable, Codable {
    /// The link's target as written (`https://…`, `file:…`, a path).
    public var target: String
    /// Its description: the alt text.
    public var description: String?

    /// Makes a target.
    /// - Parameters:
    ///   - target: the target.
    ///   - description: the alt text.
    public init(target: String, description: String?) {
        self.target = target
        self.description = description
    }
}

/// An image's bytes, ready for upload.
public struct ImageFile: Sendable, Hashable {
    /// The bytes.
    public var bytes: [UInt8]
    /// The file name sent with them.
    public var filename: String
    /// The MIME type, such as `image/png`.
    public var mimeType: String

    /// Makes a file.
    /// - Parameters:
    ///   - bytes: the bytes.
    ///   - filename: the name.
    ///   - mimeType: the type.
    public init(bytes: [UInt8], filename: String, mimeType: String) {
        self.bytes = bytes
        self.filename = filename
        self.mimeType = mimeType
    }

    /// The MIME type for an image file name's extension (`image/png` …), `application/octet-stream` else.
    /// - Parameter filename: the name.
    /// - Returns: the type.
    public static func mimeType(forFilename filename: String) -> String {
        switch (filename as NSString).pathExtension.lowercased() {
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "gif": "image/gif"
        case "webp": "image/webp"
        case "avif": "image/avif"
        default: "application/octet-stream"
        }
    }
}

/// One status as a push would send it: the text, the content warning, and the length the server counts.
public struct PlannedStatus: Sendable, Hashable, Codable {
    /// The `status` text.
    public var text: String
    /// The content warning (`""` for none).
    public var spoilerText: String
    /// The characters the server counts (text and content warning).
    public var characters: Int

    /// The JSON keys, as the Mastodon API names the first two.
    enum CodingKeys: String, CodingKey {
        case text
        case spoilerText = "spoiler_text"
        case characters
    }
}

/// What one post becomes on one account.
public struct PostPlan: Sendable, Hashable {
    /// The post's ID.
    public var postID: String
    /// The post's URL.
    public var postURL: String
    /// The statuses, in thread order.
    public var parts: [PlannedStatus]
    /// The language.
    public var language: String?
    /// Whether it goes as a direct status (a `VISIBILITY: mention` post, when configured).
    public var isDirect: Bool
    /// The status the first part answers (the mirrored parent's last part).
    public var inReplyToID: String?
    /// The native poll on the first part, if any.
    public var poll: StatusDraft.PollDraft?
    /// The images to upload and attach to the first part.
    public var images: [OrgImageTarget]
    /// The hash of everything above but the poll's remaining time: an edit when it changes.
    public var contentHash: String
}

/// What a push decided for one post.
public enum PostDecision: Sendable, Hashable {
    /// Statuses to create or edit.
    case statuses(PostPlan)
    /// Reblog the status `statusID` (a boost of a mirrored post).
    case reblog(postID: String, statusID: String)
    /// Favourite the status `statusID` (a reaction to a mirrored post).
    case favourite(postID: String, statusID: String)
    /// Leave the post out, for the reason given.
    case skip(postID: String, reason: String)
}
