import OrgSocial

/// Percent-encoding as the reference relay writes it in `_links` hrefs: Python's `urllib.parse.quote(s, safe="")`.
///
/// Only the unreserved characters `A–Z a–z 0–9 _ . - ~` are kept; every other byte of the UTF-8 encoding is
/// written as `%XX` with upper-case hex digits, so `:`, `/`, `#`, `+`, `?`, `&`, `=` and spaces are all encoded.
package enum RelayPercentEncoding {
    /// Encodes `text` like Python's `quote(text, safe="")`.
    ///
    /// - Parameter text: The raw value, e.g. a feed URL.
    /// - Returns: The encoded value, e.g. `http%3A%2F%2Fexample.com%2Fsocial.org`.
    package static func encode(_ text: String) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            if FeedURL.isUnreserved(byte) {
                output.append(byte)
            } else {
                output.append(UInt8(ascii: "%"))
                output.append(hex[Int(byte >> 4)])
                output.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
