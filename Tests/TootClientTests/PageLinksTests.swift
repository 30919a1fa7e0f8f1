import Foundation
import HTTPCore
import Testing

@testable import TootClient

@Suite struct PageLinksTests {
    @Test func mastodonLinksGiveOlderAsNextAndNewerAsPrevious() {
        let links = PageLinks(
            header: "<https://host/api/v1/accounts/1/statuses?limit=40&max_id=111>; rel=\"next\", "
                + "<https://host/api/v1/accounts/1/statuses?limit=40&min_id=222>; rel=\"prev\"")
        #expect(links.next?.maxID == "111")
        #expect(links.next?.minID == nil)
        #expect(links.previous?.minID == "222")
    }

    @Test func pleromaLinksWithBothCursorsAreReadLinkByLink() {
        let links = PageLinks(
            header: "<https://host/api/v1/accounts/9/statuses?max_id=AAA&min_id=ZZZ>; rel=\"next\", "
                + "<https://host/api/v1/accounts/9/statuses?max_id=AAB&min_id=ZZY>; rel=\"prev\"")
        #expect(links.next?.maxID == "AAA")
        #expect(links.previous?.minID == "ZZY")
        #expect(links.previous?.maxID == "AAB")
    }

    @Test func legacyLinksCarrySinceIDInPrevious() {
        let links = PageLinks(header: "<https://host/api/v1/timelines/home?since_id=5>; rel=\"prev\"")
        #expect(links.previous?.sinceID == "5")
        #expect(links.next == nil)
    }

    @Test func gotosocialLinksKeepTheirFilterFlags() {
        let links = PageLinks(
            header:
                "<https://host/api/v1/accounts/01H/statuses?exclude_reblogs=true&limit=20&max_id=01HA>; rel=\"next\", "
                + "<https://host/api/v1/accounts/01H/statuses?exclude_reblogs=true&limit=20&min_id=01HZ>; rel=\"prev\"")
        #expect(links.next?.maxID == "01HA")
        #expect(links.previous?.minID == "01HZ")
        let query = links.next.flatMap { URLComponents(url: $0.url, resolvingAgainstBaseURL: false)?.queryItems } ?? []
        #expect(query.contains(URLQueryItem(name: "exclude_reblogs", value: "true")))
    }

    @Test func malformedLinksAreSkippedNotFatal() {
        let links = PageLinks(
            header: "<https://host/a?max_id=1>; rel=\"unknown\",\n   <https://host/b?max_id=2> ;  rel = next , "
                + "no-angle-brackets; rel=\"prev\", <https://host/c?min_id=3>; REL=\"prev\"")
        #expect(links.next?.maxID == "2")
        #expect(links.previous?.minID == "3")
        #expect(PageLinks(header: "").next == nil)
        #expect(PageLinks(header: nil).previous == nil)
    }

    @Test func aLinkWithACommaInsideItsURLStaysWhole() {
        let links = PageLinks(header: "<https://host/x?types[]=a,b&max_id=7>; rel=\"next\"")
        #expect(links.next?.maxID == "7")
    }
}

@Suite struct RateLimitTests {
    @Test func mastodonsISOResetIsRead() throws {
        let headers = HTTPHeaders([
            ("X-RateLimit-Limit", "300"), ("X-RateLimit-Remaining", "0"),
            ("X-RateLimit-Reset", "2026-05-01T12:05:00.123456Z"),
        ])
        let limit = try #require(RateLimit(headers: headers))
        #expect(limit.limit == 300)
        #expect(limit.remaining == 0)
        let reset = try #require(limit.resetAt)
        #expect(abs(reset.timeIntervalSince1970 - 1_777_637_100.123456) < 0.001)
    }

    @Test func gotosocialsUnixResetIsRead() throws {
        let headers = HTTPHeaders([("x-ratelimit-reset", "1777637100"), ("X-Ratelimit-Remaining", "12")])
        let limit = try #require(RateLimit(headers: headers))
        #expect(limit.resetAt == Date(timeIntervalSince1970: 1_777_637_100))
        #expect(limit.remaining == 12)
    }

    @Test func noHeadersMeansNoRateLimit() {
        #expect(RateLimit(headers: .init()) == nil)
    }

    @Test func entityDatesAreReadInEveryShapeServersWrite() {
        #expect(
            abs((TootDates.parse("2026-05-01T12:00:00.196Z")?.timeIntervalSince1970 ?? 0) - 1_777_636_800.196) < 0.0001)
        #expect(TootDates.parse("2026-05-01T12:00:00Z")?.timeIntervalSince1970 == 1_777_636_800)
        #expect(TootDates.parse("2026-05-01T12:00:00")?.timeIntervalSince1970 == 1_777_636_800)
        #expect(TootDates.parse("2026-05-01T14:00:00+02:00")?.timeIntervalSince1970 == 1_777_636_800)
        #expect(TootDates.parse("2026-05-01")?.timeIntervalSince1970 == 1_777_593_600)
        #expect(TootDates.parse("1777636800")?.timeIntervalSince1970 == 1_777_636_800)
        #expect(TootDates.parse("yesterday") == nil)
    }
}
