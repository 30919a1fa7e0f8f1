/// The validators of a stored copy of a feed, sent back as `If-None-Match` and `If-Modified-Since` so an
/// unchanged feed costs one `304` and no body.
package struct FeedValidators: Sendable, Hashable {
    /// The `ETag` of the last full answer.
    package var etag: String?
    /// The `Last-Modified` date of the last full answer, verbatim.
    package var lastModified: String?

    /// Makes validators.
    /// - Parameters:
    ///   - etag: the `ETag`, if any.
    ///   - lastModified: the `Last-Modified` date, if any.
    package init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }

    /// Whether there is nothing to send (the request is unconditional).
    package var isEmpty: Bool { etag == nil && lastModified == nil }
}
