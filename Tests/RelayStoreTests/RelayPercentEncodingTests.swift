import RelayCore
import Testing

/// `RelayPercentEncoding` behaves like Python's `quote(s, safe="")`.
@Suite struct RelayPercentEncodingTests {
    @Test func encodesEverythingButUnreservedCharacters() {
        #expect(
            RelayPercentEncoding.encode("http://127.0.0.1:8801/bob/social.org")
                == "http%3A%2F%2F127.0.0.1%3A8801%2Fbob%2Fsocial.org")
        #expect(
            RelayPercentEncoding.encode("https://a.example/s.org#2025-02-01T10:00:00+0100")
                == "https%3A%2F%2Fa.example%2Fs.org%232025-02-01T10%3A00%3A00%2B0100")
        #expect(RelayPercentEncoding.encode("A-Z_a.z~09") == "A-Z_a.z~09")
        #expect(RelayPercentEncoding.encode("hello world?&=") == "hello%20world%3F%26%3D")
        #expect(RelayPercentEncoding.encode("é❤") == "%C3%A9%E2%9D%A4")
        #expect(RelayPercentEncoding.encode("") == "")
    }
}
