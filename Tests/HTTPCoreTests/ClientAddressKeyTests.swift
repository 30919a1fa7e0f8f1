import HTTPCore
import Testing

/// ``ClientAddressKey``: IPv4 clients per address, IPv6 clients per /64.
@Suite struct ClientAddressKeyTests {
    @Test func keysAnIPv4ClientByItsAddress() {
        #expect(ClientAddressKey("203.0.113.7").description == "203.0.113.7")
        #expect(ClientAddressKey("203.0.113.7") != ClientAddressKey("203.0.113.8"))
        #expect(ClientAddressKey("127.0.0.1").description == "127.0.0.1")
    }

    @Test func keysAnIPv6ClientByItsSlash64InEveryWrittenForm() {
        let forms = [
            "2001:db8:1:2::1",
            "2001:db8:1:2:ffff:ffff:ffff:ffff",
            "2001:0db8:0001:0002:0000:0000:0000:0001",
            "2001:DB8:1:2:a:b:c:d",
            "2001:db8:1:2::",
            "2001:db8:1:2:0:0:1.2.3.4",
        ]
        for form in forms {
            #expect(ClientAddressKey(form).description == "2001:db8:1:2::/64", "\(form)")
        }
        #expect(ClientAddressKey("2001:db8:1:3::1") != ClientAddressKey("2001:db8:1:2::1"))
        #expect(ClientAddressKey("2001:db8::1").description == "2001:db8:0:0::/64")
        #expect(ClientAddressKey("::1").description == "0:0:0:0::/64")
        #expect(ClientAddressKey("::").description == "0:0:0:0::/64")
    }

    @Test func keysAnIPv4MappedIPv6ClientAsItsIPv4Address() {
        #expect(ClientAddressKey("::ffff:203.0.113.7") == ClientAddressKey("203.0.113.7"))
        #expect(ClientAddressKey("::FFFF:cb00:7107") == ClientAddressKey("203.0.113.7"))
        #expect(ClientAddressKey("0:0:0:0:0:ffff:203.0.113.7") == ClientAddressKey("203.0.113.7"))
        #expect(ClientAddressKey("::ffff:203.0.113.7") != ClientAddressKey("::ffff:203.0.113.8"))
    }

    @Test func dropsTheZoneOfALinkLocalAddress() {
        #expect(ClientAddressKey("fe80::1%eth0").description == "fe80:0:0:0::/64")
        #expect(ClientAddressKey("fe80::2%2") == ClientAddressKey("fe80::1"))
    }

    @Test func keepsTextThatIsNoAddressAsItIs() {
        let texts = ["", "unknown", "1.2.3", "1.2.3.256", "1:2:3", "1::2::3", "12345::1", "1:2:3:4:5:6:7:8:9", "+1::1"]
        for text in texts {
            #expect(ClientAddressKey(text).description == text, "\(text)")
        }
    }
}
