import Crypto
import Foundation

/// The key that signs vfile URLs (HMAC-SHA-256), generated once per node and kept in
/// `<root>/.orgsocial/host-secret` (mode 0600) as 64 hex digits.
///
/// Losing the file invalidates every vfile the node has handed out; anyone who reads it can forge
/// signatures (but still needs an account's token, which is stored hashed).
struct HostSecret: Sendable {
    /// The key bytes.
    let key: [UInt8]

    /// Reads the secret at `path`, creating it on first use.
    ///
    /// - Throws: ``FeedHostingError`` if the file cannot be read or written, does not hold 64 hex
    ///   digits, or no random bytes are available.
    static func loadOrCreate(at path: String) throws(FeedHostingError) -> HostSecret {
        if let bytes = try StateFolder.read(path) {
            let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard let key = Hex.decode(text), key.count == 32 else {
                throw .corruptStateFile(path: path, reason: "it does not hold 64 hex digits")
            }
            return HostSecret(key: key)
        }
        let key: [UInt8]
        do {
            key = try SecureRandom.bytes(count: 32)
        } catch {
            throw .randomUnavailable(reason: error.localizedDescription)
        }
        try StateFolder.write(Array((Hex.encode(key) + "\n").utf8), to: path)
        return HostSecret(key: key)
    }

    /// The vfile signature: hex HMAC-SHA-256 of `token:timestamp:nick` (spec §11).
    func signature(token: String, timestamp: Int, nick: String) -> String {
        Hex.encode(HMAC.sha256(key: key, message: Array("\(token):\(timestamp):\(nick)".utf8)))
    }
}
