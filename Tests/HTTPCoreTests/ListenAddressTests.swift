import HTTPCore
import Testing

/// `HOST:PORT` as the `--metrics-address` options take it.
@Suite struct ListenAddressTests {
    @Test func parsesIPv4LocalhostAndBracketedIPv6() {
        #expect(ListenAddress(parsing: "127.0.0.1:9464") == ListenAddress(host: "127.0.0.1", port: 9464))
        #expect(ListenAddress(parsing: "localhost:0") == ListenAddress(host: "localhost", port: 0))
        #expect(ListenAddress(parsing: "[::1]:9464") == ListenAddress(host: "::1", port: 9464))
        #expect(ListenAddress(host: "::1", port: 9464).description == "[::1]:9464")
        #expect(ListenAddress(host: "0.0.0.0", port: 80).description == "0.0.0.0:80")
    }

    @Test func refusesAddressesWithoutAHostOrAPortInRange() {
        for text in [
            "9464", ":9464", "127.0.0.1:", "127.0.0.1:65536", "127.0.0.1:-1", "::1:9464", "[::1:9464",
            "127.0.0.1:94a4", "http://127.0.0.1:9464",
        ] {
            #expect(ListenAddress(parsing: text) == nil, "\(text)")
        }
    }
}
