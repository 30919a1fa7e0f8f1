import Crypto
import Testing

@testable import FeedHosting

/// vfile capability URLs (spec §11) and their signatures.
struct VFileTests {
    @Test func readsTheThreeParameters() throws {
        let vfile = try #require(
            VFile(url: "https://host.example/vfile?token=\(String(repeating: "ab", count: 32))&ts=1767323045&sig=ff"))
        #expect(vfile.token == String(repeating: "ab", count: 32))
        #expect(vfile.timestamp == 1_767_323_045)
        #expect(vfile.signature == "ff")
        #expect(vfile.hasIssuedShape)
        #expect(VFile(url: vfile.url(siteURL: "https://host.example")) == vfile)
    }

    @Test func rejectsMissingEmptyOrNonNumericParameters() {
        for text in [
            "https://h/vfile", "https://h/vfile?token=&ts=1&sig=a", "https://h/vfile?token=t&ts=x&sig=a",
            "https://h/vfile?token=t&ts=0&sig=a", "https://h/vfile?token=t&ts=1", "not a url at all",
        ] {
            #expect(VFile(url: text) == nil, "\(text)")
        }
    }

    @Test func signsTokenTimestampAndNick() {
        let secret = HostSecret(key: Array(repeating: 7, count: 32))
        let signature = secret.signature(token: "t", timestamp: 5, nick: "alice")
        #expect(
            signature == Hex.encode(HMAC.sha256(key: Array(repeating: 7, count: 32), message: Array("t:5:alice".utf8))))
        #expect(signature != secret.signature(token: "t", timestamp: 5, nick: "bob"))
    }
}
