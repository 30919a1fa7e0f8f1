/// The place of one hosted feed under the node's root: `social.org` or `<folder>/social.org`.
///
/// Only these two shapes are ever served or written, so a request can never reach another file. The
/// folder name must be non-empty, must not start with `.` (which also rules out `.` and `..` and keeps
/// the node's own `.orgsocial/` folder and temporary files private), and must not contain `/`, `\` or
/// NUL. Host API nicks (letters, digits, `-`, `_`) always make valid folder names.
package struct FeedPath: Hashable, Sendable, CustomStringConvertible {
    /// The file name every feed has.
    package static let fileName = "social.org"

    /// The folder under the root, or `nil` for the root's own `social.org`.
    package let folder: String?

    /// A feed at the top of the root (`social.org`).
    package static let top = FeedPath(uncheckedFolder: nil)

    private init(uncheckedFolder folder: String?) {
        self.folder = folder
    }

    /// The feed in `folder`, or `nil` if the name is not allowed.
    ///
    /// - Parameter folder: The folder name, for example a nick.
    package init?(folder: String) {
        guard Self.isAllowedFolderName(folder) else { return nil }
        self.folder = folder
    }

    /// The feed a request path names, from its decoded segments (`["alice", "social.org"]`), or `nil` if
    /// the segments name anything else.
    ///
    /// - Parameter segments: The path segments after the leading `/`.
    package init?(segments: [String]) {
        switch segments.count {
        case 1 where segments[0] == Self.fileName:
            self = .top
        case 2 where segments[1] == Self.fileName:
            self.init(folder: segments[0])
        default:
            return nil
        }
    }

    /// Parses a path relative to the root, as given to `orgsocial serve token --feed`.
    ///
    /// - Parameter text: `social.org` or `<folder>/social.org`, optionally with a leading `/`.
    /// - Throws: ``FeedHostingError/invalidFeedPath(_:)`` for anything else.
    package init(validating text: String) throws(FeedHostingError) {
        let trimmed = text.hasPrefix("/") ? String(text.dropFirst()) : text
        let segments = trimmed.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard let path = FeedPath(segments: segments) else { throw .invalidFeedPath(text) }
        self = path
    }

    /// The path relative to the root: `social.org` or `alice/social.org`.
    package var relativePath: String {
        folder.map { "\($0)/\(Self.fileName)" } ?? Self.fileName
    }

    /// The URL path, percent-encoded: `/social.org` or `/alice/social.org`.
    package var urlPath: String {
        folder.map { "/\(Self.percentEncoded($0))/\(Self.fileName)" } ?? "/\(Self.fileName)"
    }

    /// The relative path.
    package var description: String { relativePath }

    static func isAllowedFolderName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 255 && !name.hasPrefix(".")
            && !name.utf8.contains(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "\\") || $0 == 0 })
    }

    /// Percent-encodes everything but RFC 3986's unreserved characters.
    static func percentEncoded(_ segment: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var output: [UInt8] = []
        for byte in segment.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
                UInt8(ascii: "~"):
                output.append(byte)
            default:
                output += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
