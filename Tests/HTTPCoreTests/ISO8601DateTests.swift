import Foundation
import Testing

@testable import HTTPCore

@Suite("ISO 8601 dates: RFC 3339 and the looser shapes servers write")
struct ISO8601DateTests {
    /// 2026-05-01T12:00:00Z.
    let noon: TimeInterval = 1_777_636_800

    private func seconds(_ text: String) -> TimeInterval? { ISO8601Date.parse(text)?.timeIntervalSince1970 }

    @Test func rfc3339WithAZoneOrAnOffset() {
        #expect(seconds("2026-05-01T12:00:00Z") == noon)
        #expect(seconds("2026-05-01t12:00:00z") == noon)
        #expect(seconds("2026-05-01T14:00:00+02:00") == noon)
        #expect(seconds("2026-05-01T14:00:00+0200") == noon)
        #expect(seconds("2026-05-01T14:00:00+02") == noon)
        #expect(seconds("2026-05-01T07:30:00-04:30") == noon)
    }

    @Test func fractionsAreKept() throws {
        let value = try #require(seconds("2026-05-01T12:00:00.196Z"))
        #expect(abs(value - (noon + 0.196)) < 0.0001)
        #expect(seconds("2026-05-01T12:00:00,5Z") == noon + 0.5)
    }

    @Test func looserShapes() {
        #expect(seconds("2026-05-01T12:00:00") == noon, "no zone is UTC")
        #expect(seconds("2026-05-01 12:00:00") == noon, "a space for T")
        #expect(seconds("2026-05-01T12:00Z") == noon, "no seconds")
        #expect(seconds("2026-05-01T12:00:00 Z") == noon, "a space before the zone")
        #expect(seconds("2026-05-01T08:00:00 EDT") == noon, "a named zone of RFC 822")
        #expect(seconds("2026-05-01") == noon - 12 * 3600, "a bare date")
    }

    @Test func notADate() {
        for text in [
            "", "yesterday", "2026-5-1", "2026-05-01T", "2026-05-01T12", "2026-05-01T12:00:00+",
            "2026-05-01T12:00:00 XYZ",
            "2026-13-01", "2026-05-32", "2026-05-01T24:00:00Z", "2026-05-01T12:60:00Z", "2026-05-01T12:00:00Zjunk",
            "1777636800",
        ] {
            #expect(ISO8601Date.parse(text) == nil, "\(text)")
        }
    }
}
