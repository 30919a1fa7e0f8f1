import Foundation
import OrgSocial

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs in the child process: reads the file, parses it once, touches every ID, prints `key=value` lines.
func memoryChild(path: String) -> Never {
    let bytes = readFile(path)
    let rssBefore = currentRSSKiB()
    let peakBefore = peakRSSKiB()
    let feed = OrgSocialParser().parse(bytes: bytes)
    var idBytes = 0
    for post in feed.posts { idBytes &+= post.id?.utf8.count ?? 0 }
    let peakAfter = peakRSSKiB()
    let rssAfter = currentRSSKiB()
    print("file_bytes=\(bytes.count)")
    print("posts=\(feed.posts.count)")
    print("id_bytes=\(idBytes)")
    print("rss_before_kib=\(rssBefore)")
    print("peak_before_kib=\(peakBefore)")
    print("peak_after_kib=\(peakAfter)")
    print("rss_after_kib=\(rssAfter)")
    withExtendedLifetime(feed) {}
    withExtendedLifetime(bytes) {}
    exit(0)
}

/// What the child reported.
struct MemoryReport {
    var fileBytes = 0
    var posts = 0
    var rssBeforeKiB = 0
    var peakBeforeKiB = 0
    var peakAfterKiB = 0
    var rssAfterKiB = 0
}

/// Writes `bytes` to a temporary file and runs this binary on it in `--memory-child` mode.
func measureMemory(_ bytes: [UInt8]) -> MemoryReport {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("orgsocial-bench-\(getpid()).org").path
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { fail("cannot write \(path)") }
    defer { try? FileManager.default.removeItem(atPath: path) }
    let executable =
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = ["--memory-child", path]
    let pipe = Pipe()
    process.standardOutput = pipe
    do {
        try process.run()
    } catch {
        fail("cannot run \(executable) --memory-child: \(error)")
    }
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        fail("the memory child exited with status \(process.terminationStatus)")
    }
    var values: [String: Int] = [:]
    for line in output.split(separator: "\n") {
        let parts = line.split(separator: "=", maxSplits: 1)
        if parts.count == 2, let value = Int(parts[1]) { values[String(parts[0])] = value }
    }
    return MemoryReport(
        fileBytes: values["file_bytes"] ?? 0, posts: values["posts"] ?? 0, rssBeforeKiB: values["rss_before_kib"] ?? 0,
        peakBeforeKiB: values["peak_before_kib"] ?? 0, peakAfterKiB: values["peak_after_kib"] ?? 0,
        rssAfterKiB: values["rss_after_kib"] ?? 0)
}
