public import OrgSocial

/// What ``FeedPublisher`` achieved: the feed as the server now holds it, its new `ETag`, and how many
/// attempts it took.
public struct PublishResult<Value: Sendable>: Sendable {
    /// The new `ETag` the server returned (or the current one when nothing had to be uploaded); `nil`
    /// when the server sent none.
    public let etag: String?
    /// The feed as uploaded: the remote content with the edit applied on the last attempt.
    public let feed: Feed
    /// How many times the feed was fetched and the edit applied (1 unless another writer got in first).
    public let attempts: Int
    /// What the edit closure returned on the last attempt (for example the appended post).
    public let value: Value
    /// Whether anything was uploaded; `false` when the edit left the remote feed unchanged.
    public let didUpload: Bool

    /// Makes a result.
    /// - Parameters:
    ///   - etag: the new `ETag`.
    ///   - feed: the feed as uploaded.
    ///   - attempts: the attempts used.
    ///   - value: the edit's result.
    ///   - didUpload: whether anything was uploaded.
    public init(etag: String?, feed: Feed, attempts: Int, value: Value, didUpload: Bool) {
        self.etag = etag
        self.feed = feed
        self.attempts = attempts
        self.value = value
        self.didUpload = didUpload
    }
}

/// The condition an upload puts on the file it replaces.
public enum WritePrecondition: Sendable, Hashable {
    /// Replace the file only if its `ETag` is still this one (`If-Match`).
    case matching(String)
    /// Create the file only if there is none yet (`If-None-Match: *`).
    case noExistingFile
    /// No condition: the upload replaces whatever is there. Only for hosts without `ETag`s.
    case none
}
