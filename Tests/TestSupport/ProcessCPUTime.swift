#if canImport(Glibc)
    import Glibc
#endif

/// The CPU time this process has used (user and system, every thread), for tests that bound what waiting
/// costs.
package enum ProcessCPUTime {
    /// The CPU time used so far (`getrusage(RUSAGE_SELF)`).
    package static func current() -> Duration {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        let user = Duration.seconds(usage.ru_utime.tv_sec) + .microseconds(usage.ru_utime.tv_usec)
        let system = Duration.seconds(usage.ru_stime.tv_sec) + .microseconds(usage.ru_stime.tv_usec)
        return user + system
    }

    /// How much CPU time `work` used, and how long it took on the wall clock.
    /// - Parameter work: what to measure.
    /// - Returns: the CPU time and the elapsed time.
    package static func measure(_ work: () async throws -> Void) async rethrows -> (cpu: Duration, wall: Duration) {
        let (cpuBefore, wallBefore) = (current(), ContinuousClock.now)
        try await work()
        return (current() - cpuBefore, ContinuousClock.now - wallBefore)
    }
}
