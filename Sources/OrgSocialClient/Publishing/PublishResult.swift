public import OrgSocial

/// What ``FeedPublisher`` achieved: the feed as the destination now holds it, its new version, and how
/// many attempts it took.
public struct PublishResult<Value: Sendable>: Sendable {
    /// The new version the destination returned (or the current one when nothing had to be written);
    /// `nil` when it sent none.
    public let version: FeedVersion?
    /// The feed as uploaded: the remote content with the edit applied on the last attempt.
    public let feed: Feed
    /// How many times the feed was fetched and the edit applied (1 unless another writer got in first).
    public let attempts: Int
    /// What the edit closure returned on the last attempt (for example the appended post).
    public let value: Value
    /// Whether anything was uploaded; `false` when the edit left the remote feed unchanged.
    public let didUpload: Bool

    /// The new `ETag`, when the version is one.
    public var etag: String? {
        if case .entityTag(let tag) = version { return tag }
        return nil
    }

    /// Makes a result.
    /// - Parameters:
    ///   - version: the new version.
    ///   - feed: the feed as uploaded.
    ///   - attempts: the attempts used.
    ///   - value: the edit's result.
    ///   - didUpload: whether anything was uploaded.
    public init(version: FeedVersion?, feed: Feed, attempts: Int, value: Value, didUpload: Bool) {
        self.version = version
        self.feed = feed
        self.attempts = attempts
        self.value = value
        self.didUpload = didUpload
    }
}
