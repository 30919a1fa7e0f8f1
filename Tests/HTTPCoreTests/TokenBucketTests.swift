import HTTPCore
import Testing

@Suite struct TokenBucketTests {
    @Test func allowsABurstThenRefusesWithTheSecondsUntilTheNextToken() {
        let bucket = TokenBucket(rate: .init(requests: 3, per: .seconds(60)))
        let now = ContinuousClock.now
        #expect((0..<3).map { _ in bucket.admit("a", now: now) } == [.allowed, .allowed, .allowed])
        #expect(bucket.admit("a", now: now) == .limited(retryAfterSeconds: 20))
        #expect(bucket.admit("b", now: now) == .allowed)
    }

    @Test func refillsOverTime() {
        let bucket = TokenBucket(rate: .init(requests: 2, per: .seconds(10)))
        let now = ContinuousClock.now
        _ = bucket.admit("a", now: now)
        _ = bucket.admit("a", now: now)
        #expect(bucket.admit("a", now: now + .seconds(1)) == .limited(retryAfterSeconds: 4))
        #expect(bucket.admit("a", now: now + .seconds(6)) == .allowed)
        #expect(bucket.admit("a", now: now + .seconds(6)) != .allowed)
    }

    @Test func keepsAtMostTheMaximumNumberOfAddresses() {
        let bucket = TokenBucket(rate: .init(requests: 1, per: .seconds(1)), maximumAddresses: 10)
        let now = ContinuousClock.now
        for index in 0..<100 {
            _ = bucket.admit(ClientAddressKey("10.0.0.\(index)"), now: now)
        }
        #expect(bucket.trackedAddresses <= 10)
    }
}

/// The buckets count IPv6 clients per /64.
@Suite struct TokenBucketPrefixTests {
    @Test func sharesOneBucketAcrossAnIPv6Slash64() {
        let bucket = TokenBucket(rate: .init(requests: 2, per: .seconds(60)))
        let now = ContinuousClock.now
        #expect(bucket.admit(ClientAddressKey("2001:db8:1:2::1"), now: now) == .allowed)
        #expect(bucket.admit(ClientAddressKey("2001:db8:1:2::2"), now: now) == .allowed)
        #expect(bucket.admit(ClientAddressKey("2001:db8:1:2:dead:beef:0:3"), now: now) != .allowed)
        #expect(bucket.admit(ClientAddressKey("2001:db8:1:3::1"), now: now) == .allowed)
        #expect(bucket.trackedAddresses == 2)
    }
}
