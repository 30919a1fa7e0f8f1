import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// This process's memory, for tests that bound what a piece of work costs: the resident set now, its
/// peak, and how much either grows while the work runs.
package enum ResidentMemory {
    /// The resident set in bytes (`/proc/self/statm`), or `nil` where there is none.
    package static func current() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// The peak resident set since the process started or the last ``resetPeak()`` (`VmHWM` in
    /// `/proc/self/status`), or `nil` where there is none.
    package static func peak() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return nil }
        return kilobytes * 1024
    }

    /// Sets the peak back to the current resident set (writing `5` to `/proc/self/clear_refs`, Linux
    /// 4.0 and later). Returns whether the kernel took it.
    @discardableResult
    package static func resetPeak() -> Bool {
        let descriptor = open("/proc/self/clear_refs", O_WRONLY)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return write(descriptor, "5", 1) == 1
    }

    /// Gives freed heap memory back to the system (glibc's `malloc_trim`, looked up at run time), so that
    /// a measurement starts from what is really in use.
    package static func trimHeap() {
        typealias Trim = @convention(c) (Int) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
    }

    /// The smallest growth of the resident set over three runs of `work`, from before it to after it
    /// (tests running at the same time only add to a measurement, so the smallest is the closest to
    /// `work`'s own). What `work` keeps counts; what it frees before returning does not.
    /// - Parameter work: the work to measure.
    /// - Returns: the growth in bytes, or `nil` where memory cannot be read.
    package static func smallestGrowth(_ work: () throws -> Void) rethrows -> Int? {
        var smallest: Int?
        for _ in 0..<3 {
            trimHeap()
            guard let before = current() else { return nil }
            try work()
            guard let after = current() else { return nil }
            smallest = min(smallest ?? .max, after - before)
        }
        return smallest
    }

    /// The smallest growth of the peak resident set over three runs of `work`, above the resident set
    /// before it: memory `work` uses at its busiest, even if freed before it returns.
    /// - Parameter work: the work to measure.
    /// - Returns: the growth in bytes, or `nil` where the peak cannot be read or reset.
    package static func smallestPeakGrowth(_ work: () throws -> Void) rethrows -> Int? {
        var smallest: Int?
        for _ in 0..<3 {
            trimHeap()
            guard resetPeak(), let before = current() else { return nil }
            try work()
            guard let peak = peak() else { return nil }
            smallest = min(smallest ?? .max, peak - before)
        }
        return smallest
    }
}
