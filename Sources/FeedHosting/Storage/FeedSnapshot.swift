import Crypto
import HTTPCore
import SystemSupport

/// One version of a feed file as the node serves it: the bytes and everything derived from them once.
///
/// Snapshots are built when a file is first read or written, and kept by ``FeedCache`` until the file
/// changes, so a GET never hashes or re-reads an unchanged file.
struct FeedSnapshot: Sendable {
    /// The file's bytes.
    let bytes: [UInt8]
    /// The file status the bytes belong to; the cache compares it with a fresh `stat`.
    let status: FileStatus
    /// The strong entity tag of the identity representation: the quoted lowercase hex SHA-256 of the
    /// bytes (`"9f86d0…"`).
    let entityTag: String
    /// The tag of the gzip representation: the same digest with `-gzip` inside the quotes, so that
    /// caches never mix the two encodings (RFC 9110, section 8.8.3).
    let gzipEntityTag: String
    /// The modification time in whole seconds, which `If-Modified-Since` compares against.
    let modifiedAt: Int
    /// `Last-Modified`, as an HTTP-date.
    let lastModified: String
    /// The gzip encoding of ``bytes``, once a client has asked for it.
    var gzipBytes: [UInt8]?

    /// Derives the tags and dates of `bytes`.
    init(bytes: [UInt8], status: FileStatus) {
        let digest = SHA256.hexHash(bytes)
        self.bytes = bytes
        self.status = status
        self.entityTag = "\"\(digest)\""
        self.gzipEntityTag = "\"\(digest)-gzip\""
        self.modifiedAt = status.modificationSeconds
        self.lastModified = HTTPDate.format(status.modificationSeconds)
        self.gzipBytes = nil
    }
}
