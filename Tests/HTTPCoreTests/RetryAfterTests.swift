import Foundation
import Testing

@testable import HTTPCore

@Suite("Retry-After: seconds or an HTTP date, never a negative wait")
struct RetryAfterTests {
    /// Sun, 06 Nov 1994 08:49:37 GMT.
    let now = Date(timeIntervalSince1970: 784_111_777)

    @Test func secondsAreTakenAsTheyAre() {
        #expect(RetryAfter.delay("120", now: now) == .seconds(120))
        #expect(RetryAfter.delay(" 5 ", now: now) == .seconds(5))
        #expect(RetryAfter.delay("0", now: now) == .zero)
        #expect(RetryAfter.delay("-3", now: now) == .zero)
    }

    @Test func aDateIsMeasuredFromNow() {
        #expect(RetryAfter.delay("Sun, 06 Nov 1994 08:50:07 GMT", now: now) == .seconds(30))
        #expect(RetryAfter.delay("Sunday, 06-Nov-94 08:49:47 GMT", now: now) == .seconds(10))
        #expect(
            RetryAfter.delay("Sun, 06 Nov 1994 08:49:38 GMT", now: now.addingTimeInterval(0.25))
                == .milliseconds(750))
    }

    @Test func aDateInThePastMeansNoWait() {
        #expect(RetryAfter.delay("Sun, 06 Nov 1994 08:00:00 GMT", now: now) == .zero)
    }

    @Test func anythingElseIsIgnored() {
        #expect(RetryAfter.delay("", now: now) == nil)
        #expect(RetryAfter.delay("soon", now: now) == nil)
        #expect(RetryAfter.delay("1.5", now: now) == nil)
        #expect(RetryAfter.delay("2026-05-01T12:00:00Z", now: now) == nil)
    }
}
