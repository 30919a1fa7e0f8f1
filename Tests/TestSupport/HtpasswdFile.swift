package import Foundation

/// A password file for HTTP Basic in the `{SHA}` form that Apache's `mod_authn_file` and nginx's
/// `auth_basic_user_file` both read: one line `user:{SHA}<base64 of the SHA-1 of the password>`, written
/// by the test itself (no `htpasswd` binary needed).
///
/// SHA-1 is weak for stored passwords; here it only guards a throwaway server on 127.0.0.1 for the
/// length of one test.
package enum HtpasswdFile {
    /// The line for `user` and `password`, with its line feed.
    ///
    /// - Parameters:
    ///   - user: The user name (no colon).
    ///   - password: The password.
    /// - Returns: `user:{SHA}…\n`.
    package static func line(user: String, password: String) -> String {
        "\(user):{SHA}\(Data(sha1(Array(password.utf8))).base64EncodedString())\n"
    }

    /// The SHA-1 digest of `message` (FIPS 180-4), 20 bytes.
    ///
    /// - Parameter message: The bytes to hash.
    /// - Returns: The digest.
    package static func sha1(_ message: [UInt8]) -> [UInt8] {
        var state: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
        var padded = message + [0x80]
        while padded.count % 64 != 56 { padded.append(0) }
        let bitLength = UInt64(message.count) &* 8
        for shift in stride(from: 56, through: 0, by: -8) {
            padded.append(UInt8(truncatingIfNeeded: bitLength >> shift))
        }
        var words = [UInt32](repeating: 0, count: 80)
        for blockStart in stride(from: 0, to: padded.count, by: 64) {
            for index in 0..<16 {
                let offset = blockStart + index * 4
                words[index] = padded[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
            }
            for index in 16..<80 {
                let mixed = words[index - 3] ^ words[index - 8] ^ words[index - 14] ^ words[index - 16]
                words[index] = rotateLeft(mixed, 1)
            }
            var (a, b, c, d, e) = (state[0], state[1], state[2], state[3], state[4])
            for index in 0..<80 {
                let (mixed, constant): (UInt32, UInt32) =
                    switch index {
                    case 0..<20: ((b & c) | (~b & d), 0x5A82_7999)
                    case 20..<40: (b ^ c ^ d, 0x6ED9_EBA1)
                    case 40..<60: ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                    default: (b ^ c ^ d, 0xCA62_C1D6)
                    }
                let next = rotateLeft(a, 5) &+ mixed &+ e &+ constant &+ words[index]
                (e, d, c, b, a) = (d, c, rotateLeft(b, 30), a, next)
            }
            state[0] &+= a
            state[1] &+= b
            state[2] &+= c
            state[3] &+= d
            state[4] &+= e
        }
        return state.flatMap { word in
            stride(from: 24, through: 0, by: -8).map { UInt8(truncatingIfNeeded: word >> $0) }
        }
    }

    private static func rotateLeft(_ value: UInt32, _ count: UInt32) -> UInt32 {
        (value << count) | (value >> (32 - count))
    }
}
