import Foundation
import OrgSocial
import TestSupport
import Testing

/// `OrgTimestamp`: the strict grammar of post IDs (spec §4.3), the lenient reading used for sorting, and
/// the canonical writer form.
struct TimestampTests {
    // MARK: - Strict form

    @Test(arguments: [
        "2025-05-01T12:00:00+0100",
        "2025-05-01T12:00:00+01:00",
        "2025-12-30T18:30:15-0200",
        "2025-12-30T22:30:15+02:00",
        "2025-01-01T00:00:00+0000",
        "2025-01-01T00:00:00-00:00",
        "2024-02-29T23:59:59+0530",
        "2000-02-29T12:00:00+1400",
        "1970-01-01T00:00:00+0000",
    ])
    func acceptsTheStrictForms(_ text: String) {
        let stamp = OrgTimestamp(text)

        #expect(stamp.isValid)
        #expect(stamp.raw == text)
        #expect(stamp.instant != nil)
        #expect(stamp.lenientInstant == stamp.instant)
        #expect(stamp.sortInstant == stamp.instant)
    }

    @Test func readsTheInstantWithItsOffset() {
        #expect(OrgTimestamp("2025-05-01T12:00:00+0100").instant == Date(timeIntervalSince1970: 1_746_097_200))
        #expect(OrgTimestamp("1970-01-01T00:00:00+0000").instant == Date(timeIntervalSince1970: 0))
        #expect(OrgTimestamp("1970-01-01T01:00:00+01:00").instant == Date(timeIntervalSince1970: 0))
        #expect(OrgTimestamp("1969-12-31T21:30:00-02:30").instant == Date(timeIntervalSince1970: 0))
        #expect(OrgTimestamp("2024-02-29T23:59:59+0530").instant == Date(timeIntervalSince1970: 1_709_231_399))
    }

    @Test func readsTheUTCOffsetInSeconds() {
        #expect(OrgTimestamp("2025-05-01T12:00:00+0100").utcOffsetSeconds == 3600)
        #expect(OrgTimestamp("2025-05-01T12:00:00-03:30").utcOffsetSeconds == -12_600)
        #expect(OrgTimestamp("2025-05-01T12:00:00+0000").utcOffsetSeconds == 0)
        #expect(OrgTimestamp("not a date").utcOffsetSeconds == nil)
    }

    @Test func colonAndNoColonOffsetsAreTheSameInstantButDifferentIDs() {
        let withColon = OrgTimestamp("2025-05-01T12:00:00+01:00")
        let withoutColon = OrgTimestamp("2025-05-01T12:00:00+0100")

        #expect(withColon.instant == withoutColon.instant)
        #expect(withColon != withoutColon)
        #expect(withColon.raw != withoutColon.raw)
    }

    @Test func ignoresSurroundingSpacesAndTabs() {
        let stamp = OrgTimestamp(" \t2025-05-01T12:00:00+0100  ")

        #expect(stamp.raw == "2025-05-01T12:00:00+0100")
        #expect(stamp.isValid)
        #expect(stamp.description == "2025-05-01T12:00:00+0100")
    }

    // MARK: - Invalid, but readable leniently

    @Test(arguments: [
        ("2025-08-16T15:41:00-5:00", 1_755_376_860.0),  // one-digit offset hour (ragamuffinjim)
        ("2025-11-02T10:45:00", 1_762_080_300.0),  // no offset: read as UTC (sympodius)
        ("2025-05-01T11:00:00Z", 1_746_097_200.0),
        ("2025-05-01T11:00:00z", 1_746_097_200.0),
        ("2025-05-01T12:00+0100", 1_746_097_200.0),  // no seconds
        ("2025-05-01T12:00:00.250+0100", 1_746_097_200.0),  // fractional seconds
        ("2025-05-01t12:00:00+0100", 1_746_097_200.0),  // lowercase t
        ("2025-05-01 12:00:00+0100", 1_746_097_200.0),  // space separator
    ])
    func malformedSpellingsAreInvalidButSortable(_ text: String, _ seconds: Double) {
        let stamp = OrgTimestamp(text)

        #expect(!stamp.isValid)
        #expect(stamp.instant == nil)
        #expect(stamp.lenientInstant == Date(timeIntervalSince1970: seconds))
        #expect(stamp.sortInstant == Date(timeIntervalSince1970: seconds))
        #expect(stamp.raw == text)
    }

    // MARK: - Not timestamps at all

    @Test(arguments: [
        "",
        "hi",
        "40000-01-01T00:00:00+0100",  // spec's "far future" example: five-digit year
        "2025-13-01T12:00:00+0100",
        "2025-00-10T12:00:00+0100",
        "2025-02-29T12:00:00+0100",  // not a leap year
        "2100-02-29T12:00:00+0100",  // century, not a leap year
        "2025-04-31T12:00:00+0100",
        "2025-05-01T24:00:00+0100",
        "2025-05-01T12:60:00+0100",
        "2025-05-01T12:00:60+0100",
        "2025-05-01T12:00:00+2400",
        "2025-05-01T12:00:00+0160",
        "2025-05-01T12:00:00+0100 trailing",
        "2025-05-01T12:00:00+01",
        "2025-05-01",
        "a73d3c63-eb1e-4a55-8f5e-0e0e0e0e0e0e",
        "<2025-05-01 Thu 12:00>",
    ])
    func rejectsTextThatIsNoTimestamp(_ text: String) {
        let stamp = OrgTimestamp(text)

        #expect(!stamp.isValid)
        #expect(stamp.instant == nil)
        #expect(stamp.lenientInstant == nil)
        #expect(stamp.sortInstant == nil)
    }

    // MARK: - Writing

    @Test func formatsInTheCanonicalPlusHHMMForm() {
        let date = Date(timeIntervalSince1970: 1_746_097_200)  // 2025-05-01T11:00:00Z

        #expect(OrgTimestamp.format(date, timeZone: cetZone) == "2025-05-01T12:00:00+0100")
        #expect(OrgTimestamp.format(date, timeZone: utcZone) == "2025-05-01T11:00:00+0000")
        #expect(OrgTimestamp.format(date, timeZone: zone(-3 * 3600)) == "2025-05-01T08:00:00-0300")
        #expect(OrgTimestamp.format(date, timeZone: zone(5 * 3600 + 1800)) == "2025-05-01T16:30:00+0530")
        #expect(OrgTimestamp.format(date, timeZone: zone(-(3 * 3600 + 1800))) == "2025-05-01T07:30:00-0330")
    }

    @Test func formatCrossesDayAndYearBoundaries() {
        let newYear = Date(timeIntervalSince1970: 1_735_689_599)  // 2024-12-31T23:59:59Z

        #expect(OrgTimestamp.format(newYear, timeZone: utcZone) == "2024-12-31T23:59:59+0000")
        #expect(OrgTimestamp.format(newYear, timeZone: cetZone) == "2025-01-01T00:59:59+0100")
        #expect(OrgTimestamp.format(Date(timeIntervalSince1970: -1), timeZone: utcZone) == "1969-12-31T23:59:59+0000")
        #expect(
            OrgTimestamp.format(Date(timeIntervalSince1970: 951_782_400), timeZone: utcZone)
                == "2000-02-29T00:00:00+0000")
    }

    @Test func formatDropsFractionalSeconds() {
        let date = Date(timeIntervalSince1970: 1_746_097_200.999)

        #expect(OrgTimestamp.format(date, timeZone: utcZone) == "2025-05-01T11:00:00+0000")
    }

    @Test func formattedTimestampsParseBackToTheSameInstant() {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<200 {
            let seconds = Int(rng.next(below: 4_000_000_000)) - 1_000_000_000
            let offset = (Int(rng.next(below: 105)) - 48) * 900  // -12:00 … +14:00 in quarter hours
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))

            let text = OrgTimestamp.format(date, timeZone: zone(offset))
            let stamp = OrgTimestamp(text)

            #expect(stamp.isValid, "\(text)")
            #expect(stamp.instant == date, "\(text)")
            #expect(stamp.utcOffsetSeconds == offset, "\(text)")
        }
    }

    @Test func encodesAndDecodesAsCodable() throws {
        let stamp = OrgTimestamp("2025-08-16T15:41:00-5:00")

        let data = try JSONEncoder().encode(stamp)
        let back = try JSONDecoder().decode(OrgTimestamp.self, from: data)

        #expect(back == stamp)
    }
}
