package import TootClient

extension FakeMastodon {
    /// A client clock that reads the fake's time and, instead of sleeping, moves it forward: rate-limit
    /// resets and back-offs then take no real time.
    package var waits: WaitClock {
        let clock = self.clock
        return WaitClock(now: { clock.now }, sleep: { clock.advance(by: $0) })
    }
}
