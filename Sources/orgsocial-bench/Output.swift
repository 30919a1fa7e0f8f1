import Foundation
import OrgSocial

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

func fixed(_ value: Double, _ decimals: Int) -> String { String(format: "%.\(decimals)f", value) }

func padded(_ text: String, _ width: Int, right: Bool = false) -> String {
    let count = text.count
    guard count < width else { return text }
    let fill = String(repeating: " ", count: width - count)
    return right ? fill + text : text + fill
}

func printMemory(_ memory: MemoryReport) {
    let fileKiB = Double(memory.fileBytes) / 1024
    let growth = memory.peakAfterKiB - memory.rssBeforeKiB
    let retained = memory.rssAfterKiB - memory.rssBeforeKiB
    print("Memory of one parse (child process; file \(fixed(fileKiB / 1024, 1)) MiB, \(memory.posts) posts):")
    print("  RSS before parsing (runtime + file bytes): \(memory.rssBeforeKiB) KiB")
    print(
        "  peak RSS of the process (ru_maxrss):       \(memory.peakAfterKiB) KiB = \(fixed(Double(memory.peakAfterKiB) / fileKiB, 2))× file size"
    )
    print(
        "  peak growth while parsing:                 \(growth) KiB = \(fixed(Double(growth) / fileKiB, 2))× file size")
    print(
        "  RSS kept by the parsed feed:               \(retained) KiB = \(fixed(Double(retained) / fileKiB, 2))× file size"
    )
}
