import Foundation
import HTTPClient
import HTTPCore
import HTTPServer
import OrgSocialClient
import RelayCrawler
import Testing

/// The SSRF guard: which addresses are refused, and what a refusal says.
struct AddressGuardTests {
    /// Every range the guard must refuse, with the class it reports.
    static let refused: [(String, AddressClass)] = [
        ("127.0.0.1", .loopback), ("127.255.255.254", .loopback), ("::1", .loopback),
        ("10.0.0.1", .privateNetwork), ("10.255.255.255", .privateNetwork),
        ("172.16.0.1", .privateNetwork), ("172.31.255.255", .privateNetwork),
        ("192.168.0.1", .privateNetwork), ("192.168.255.255", .privateNetwork),
        ("100.64.0.1", .sharedAddressSpace), ("100.127.255.255", .sharedAddressSpace),
        ("169.254.169.254", .linkLocal), ("fe80::1", .linkLocal), ("febf::1", .linkLocal),
        ("fc00::1", .uniqueLocal), ("fdff:ffff::1", .uniqueLocal),
        ("0.0.0.0", .unspecified), ("0.1.2.3", .unspecified), ("::", .unspecified),
        ("224.0.0.1", .multicast), ("239.255.255.250", .multicast), ("ff02::1", .multicast),
        ("240.0.0.1", .reserved), ("255.255.255.255", .reserved), ("192.0.2.1", .reserved),
        ("198.18.0.1", .reserved), ("198.51.100.7", .reserved), ("203.0.113.9", .reserved),
        ("192.0.0.8", .reserved), ("2001:db8::1", .reserved), ("::1.2.3.4", .reserved), ("100::1", .reserved),
        ("fec0::1", .privateNetwork),
        ("::ffff:127.0.0.1", .loopback), ("::ffff:10.1.2.3", .privateNetwork),
        ("::ffff:169.254.169.254", .linkLocal), ("::ffff:192.168.1.1", .privateNetwork),
        ("64:ff9b::a00:1", .privateNetwork),
    ]

    /// Addresses next to the refused ranges that are public.
    static let allowed = [
        "1.1.1.1", "8.8.8.8", "9.255.255.255", "11.0.0.0", "100.63.255.255", "100.128.0.0", "126.255.255.255",
        "128.0.0.0", "169.253.255.255", "169.255.0.0", "172.15.255.255", "172.32.0.0", "192.167.255.255",
        "192.169.0.0", "198.17.255.255", "198.20.0.0", "223.255.255.255", "2001:4860:4860::8888",
        "2a00:1450:4001::1", "::ffff:8.8.8.8", "64:ff9b::808:808",
    ]

    @Test(arguments: refused)
    func refusesLocalPrivateAndReservedRanges(address: String, expected: AddressClass) throws {
        let parsed = try #require(IPAddress(address))
        #expect(AddressClass.classify(parsed) == expected)
        #expect(!AddressClass.classify(parsed).isPublic)
    }

    @Test(arguments: allowed)
    func allowsPublicAddressesRightNextToThem(address: String) throws {
        let parsed = try #require(IPAddress(address))
        #expect(AddressClass.classify(parsed) == .global)
    }

    @Test func parsesBracketedIPv6AndPrintsStandardForms() throws {
        #expect(IPAddress("[::1]")?.description == "::1")
        #expect(IPAddress("10.0.0.1")?.bytes == [10, 0, 0, 1])
        #expect(IPAddress("::ffff:10.0.0.1")?.mappedIPv4 == IPAddress("10.0.0.1"))
        #expect(IPAddress("localhost") == nil)
        #expect(IPAddress("1.2.3") == nil)
    }

    @Test func refusesALoopbackURLWithAClearReason() async throws {
        let guardian = AddressGuard(allowPrivateAddresses: false)
        let url = try #require(URL(string: "http://127.0.0.1:8080/social.org"))
        let error = await #expect(throws: RelayCrawlerError.self) { try await guardian.check(url) }
        #expect(
            error?.localizedDescription
                == "refusing to fetch http://127.0.0.1:8080/social.org: the address is not allowed; this relay is set "
                + "not to fetch private addresses")
    }

    @Test func resolvesNamesAndNumericFormsBeforeDeciding() async throws {
        let guardian = AddressGuard(allowPrivateAddresses: false)
        for text in ["http://localhost/social.org", "http://2130706433/x", "http://0x7f.1/x", "http://[::1]:80/x"] {
            let url = try #require(URL(string: text))
            let error = await #expect(throws: RelayCrawlerError.self, "\(text)") { try await guardian.check(url) }
            guard case .refused(_, _, _, let reason) = error else {
                Issue.record("\(text) was not refused: \(String(describing: error))")
                continue
            }
            #expect(reason == "loopback address")
        }
        let localhost = try #require(URL(string: "http://localhost/social.org"))
        let error = await #expect(throws: RelayCrawlerError.self) { try await guardian.check(localhost) }
        // The message says only that the address is not allowed, never what a name resolves to.
        #expect(
            error?.localizedDescription
                == "refusing to fetch http://localhost/social.org: the address is not allowed; this relay is set not "
                + "to fetch private addresses")
        #expect(error?.localizedDescription.contains("127.0.0.1") == false)
        #expect(error?.localizedDescription.contains("::1") == false)
    }

    @Test func allowsEverythingWithTheFlagWithoutResolving() async throws {
        let guardian = AddressGuard(allowPrivateAddresses: true)
        for text in ["http://127.0.0.1/x", "http://10.0.0.1/x", "http://name.invalid/x"] {
            let url = try #require(URL(string: text))
            try await guardian.check(url)
        }
    }

    @Test func anUnresolvableNameIsAnError() async throws {
        let guardian = AddressGuard(allowPrivateAddresses: false)
        let url = try #require(URL(string: "http://no-such-host.invalid/social.org"))
        let error = await #expect(throws: RelayCrawlerError.self) { try await guardian.check(url) }
        guard case .unresolvableHost(_, let host, _) = error else {
            Issue.record("expected unresolvableHost, got \(String(describing: error))")
            return
        }
        #expect(host == "no-such-host.invalid")
    }

    @Test func theConnectionFilterAppliesTheSameClasses() throws {
        let filter = try #require(AddressGuard(allowPrivateAddresses: false).connectionFilter)
        for (text, _) in Self.refused {
            let address = try #require(IPAddress(text))
            #expect(!filter(address.bytes), "\(text) passed the connection filter")
        }
        for text in Self.allowed {
            let address = try #require(IPAddress(text))
            #expect(filter(address.bytes), "\(text) was refused by the connection filter")
        }
        #expect(!filter([1, 2, 3]))
        #expect(AddressGuard(allowPrivateAddresses: true).connectionFilter == nil)
    }

    /// A name that the HTTP stack resolves to a private address is refused when it connects, whatever
    /// an earlier check saw: the relay's transport carries the guard's filter (DNS rebinding).
    @Test func aGuardedTransportRefusesPrivateAddressesAtConnectTime() async throws {
        var router = Router()
        router.get("/social.org") { _ in .text("* Posts\n") }
        let server = try HTTPDaemon(configuration: .init(host: "127.0.0.1", port: 0), responder: router)
        let guarded = CurlTransport(
            userAgent: "test", timeout: .seconds(5), maximumRedirects: 5,
            connectionFilter: AddressGuard(allowPrivateAddresses: false).connectionFilter)
        for host in ["127.0.0.1", "localhost"] {
            let url = try #require(URL(string: "http://\(host):\(server.port)/social.org"))
            let error = await #expect(throws: HTTPClientError.self) {
                try await guarded.send(HTTPClientRequest(url: url))
            }
            guard case .networkError(_, let message) = error else {
                Issue.record("\(host): expected a network error, got \(String(describing: error))")
                continue
            }
            #expect(
                message == "connecting to 127.0.0.1 is not allowed" || message == "connecting to ::1 is not allowed")
        }
        let open = CurlTransport(
            userAgent: "test", timeout: .seconds(5), maximumRedirects: 5,
            connectionFilter: AddressGuard(allowPrivateAddresses: true).connectionFilter)
        let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/social.org"))
        let response = try await open.send(HTTPClientRequest(url: url))
        await server.stop()
        #expect(response.text == "* Posts\n")
    }
}
