import Foundation
import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The node's private folder, `<root>/.orgsocial` (mode 0700): the token file, the Host API accounts and
/// the signing secret. It is a dot-folder, so the node never serves anything from it.
enum StateFolder {
    /// Creates `path` with mode 0700 if it does not exist.
    ///
    /// - Throws: ``FeedHostingError/cannotWrite(path:reason:)``.
    static func ensure(_ path: String) throws(FeedHostingError) {
        if mkdir(path, 0o700) != 0, errno != EEXIST {
            throw .cannotWrite(path: path, reason: String(cString: strerror(errno)))
        }
    }

    /// Reads a state file, or returns `nil` if it does not exist.
    ///
    /// - Throws: ``FeedHostingError/cannotRead(path:reason:)``.
    static func read(_ path: String) throws(FeedHostingError) -> [UInt8]? {
        do {
            return try AtomicFile.read(path)?.bytes
        } catch {
            throw .cannotRead(path: path, reason: error.message)
        }
    }

    /// Writes a state file atomically with mode 0600, creating its folder (mode 0700) if needed.
    ///
    /// - Throws: ``FeedHostingError/cannotWrite(path:reason:)``.
    static func write(_ bytes: [UInt8], to path: String) throws(FeedHostingError) {
        try ensure(AtomicFile.split(path).folder)
        do {
            try AtomicFile.write(bytes, to: path, permissions: 0o600, symbolicLinks: .replace)
        } catch {
            throw .cannotWrite(path: path, reason: error.description)
        }
    }

    /// Decodes a JSON state file with `JSONDecoder` (reading is order-independent).
    ///
    /// - Throws: ``FeedHostingError/corruptStateFile(path:reason:)``.
    static func decode<Value: Decodable>(_ type: Value.Type, from bytes: [UInt8], path: String) throws(FeedHostingError)
        -> Value
    {
        do {
            return try JSONDecoder().decode(type, from: Data(bytes))
        } catch {
            throw .corruptStateFile(path: path, reason: "it is not the JSON this version writes (\(error))")
        }
    }

    /// The current time as an RFC 3339 UTC timestamp, for `created` fields.
    static func timestamp(_ date: Date) -> String {
        var time = time_t(date.timeIntervalSince1970)
        var parts = tm()
        gmtime_r(&time, &parts)
        func pad(_ value: Int32, _ width: Int = 2) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1))-\(pad(parts.tm_mday))T"
            + "\(pad(parts.tm_hour)):\(pad(parts.tm_min)):\(pad(parts.tm_sec))Z"
    }
}
