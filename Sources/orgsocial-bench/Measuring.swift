import Foundation
import OrgSocial

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The peak resident set size of this process so far, in KiB (`ru_maxrss` is KiB on Linux).
func peakRSSKiB() -> Int {
    var usage = rusage()
    #if canImport(Glibc)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    #else
        getrusage(RUSAGE_SELF, &usage)
    #endif
    return Int(usage.ru_maxrss)
}

/// The current resident set size in KiB, from `/proc/self/statm` (0 where that file does not exist).
func currentRSSKiB() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
}

/// Reads a whole file into an array of exactly its size (no second copy, unlike `Data` → `[UInt8]`).
func readFile(_ path: String) -> [UInt8] {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { fail("cannot open \(path)") }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { fail("cannot stat \(path)") }
    let size = Int(info.st_size)
    return [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
        var done = 0
        while done < size {
            let got = read(fd, buffer.baseAddress.map { $0 + done }, size - done)
            if got <= 0 { break }
            done += got
        }
        count = done
    }
}

/// The best (smallest) wall-clock time of `runs` runs of `body`, in seconds; `body` returns a checksum
/// that is folded into `checksum` so the work cannot be optimized away.
func best(of runs: Int, checksum: inout Int, _ body: () -> Int) -> Double {
    var fastest = Double.infinity
    let clock = ContinuousClock()
    for _ in 0..<runs {
        var result = 0
        let elapsed = clock.measure { result = body() }
        checksum &+= result
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        fastest = min(fastest, seconds)
    }
    return fastest
}

/// Counts LF bytes: the baseline, one pass over the buffer doing the least possible work per byte.
@inline(never)
func countNewlines(_ bytes: [UInt8]) -> Int {
    bytes.withUnsafeBufferPointer { buffer in
        var n = 0
        for b in buffer where b == UInt8(ascii: "\n") { n += 1 }
        return n
    }
}
