package import Foundation

/// What ``FeedFetcher/fetch(_:validators:checkHop:)`` read: the raw body of a `200`, or
/// the news that the stored copy is still current (`304`), with where the answer came from.
package struct ConditionalFetchResult: Sendable, Hashable {
    /// A full download or a confirmation that nothing changed.
    package enum Outcome: Sendable, Hashable {
        /// `200`: the body, unparsed and unchecked for UTF-8 or HTML.
        case fresh(body: [UInt8])
        /// `304 Not Modified`: the validators sent still match; there is no body.
        case notModified
    }

    /// The URL asked for.
    package var requestedURL: URL
    /// The URL that answered, after redirects.
    package var finalURL: URL
    /// Fresh body or not modified.
    package var outcome: Outcome
    /// The `ETag` of the answer (for a `304`, the one it carried, if any).
    package var etag: String?
    /// The `Last-Modified` date of the answer (for a `304`, the one it carried, if any).
    package var lastModified: String?
    /// Where the resource moved for good: the last URL reached by an unbroken chain of `301`/`308`
    /// redirects from ``requestedURL``; `nil` when the first redirect (if any) was temporary.
    package var permanentRedirect: URL?

    /// Makes a result.
    /// - Parameters:
    ///   - requestedURL: the URL asked for.
    ///   - finalURL: the URL that answered.
    ///   - outcome: fresh or not modified.
    ///   - etag: the answer's `ETag`.
    ///   - lastModified: the answer's `Last-Modified`.
    ///   - permanentRedirect: the permanent new location, if any.
    package init(
        requestedURL: URL, finalURL: URL, outcome: Outcome, etag: String?, lastModified: String?,
        permanentRedirect: URL?
    ) {
        self.requestedURL = requestedURL
        self.finalURL = finalURL
        self.outcome = outcome
        self.etag = etag
        self.lastModified = lastModified
        self.permanentRedirect = permanentRedirect
    }

    /// The body bytes downloaded (0 for a `304`).
    package var downloadedBytes: Int {
        if case .fresh(let body) = outcome { return body.count }
        return 0
    }
}
