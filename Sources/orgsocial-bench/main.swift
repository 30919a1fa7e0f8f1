// orgsocial-bench: parser and serializer throughput and memory on a large synthetic feed.
//
//   swift build -c release --product orgsocial-bench && .build/release/orgsocial-bench [options]
//
//   --size-mb N   size of the generated feed in MiB (default 20)
//   --runs N      timed runs per measurement; the best is reported (default 5)
//   --memory      measure only the memory of one parse
//   --seed N      seed of the generator (default 1); the same seed gives the same bytes
//   --unicode P   chance in percent that a body word is non-ASCII (default 3: about 2.5% non-ASCII bytes, within
//                 the 0–7% of the real feeds in ../shared/corpus; 40 gives about 26%, like a CJK-heavy feed)
//   --output FILE write the generated feed to FILE and stop
//   --text        benchmark the text converters instead: --statuses N (default 10000) Mastodon statuses
//                 HTML → Org, and N Org posts → Mastodon text with counting and splitting
//
// The feed is generated deterministically: a header with every keyword and 200 `#+FOLLOW` lines, then
// posts of every kind (plain, reply, reaction, poll, vote, boost, quote boost, group, mention-only,
// titled with `***` and a source block, bot, migration), 100–2000 bytes each, with Unicode and emoji.
//
// Memory is measured in a child process (this binary run with `--memory-child FILE`) that only reads
// the file and parses it once, so that the generator's allocations do not count in its peak RSS.

import Foundation
import OrgSocial

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// MARK: - Main

let options = Options.parse(Array(CommandLine.arguments.dropFirst()))
if let path = options.memoryChildPath { memoryChild(path: path) }
if options.text {
    TextBenchmark.run(options)
    exit(0)
}

let targetBytes = Int(options.sizeMiB * 1_048_576)
var generator = FeedGenerator(seed: options.seed, unicodePercent: options.unicodePercent)
let generationStart = ContinuousClock.now
let feedBytes = generator.generate(size: targetBytes)
let generationTime = ContinuousClock.now - generationStart
let fileMiB = Double(feedBytes.count) / 1_048_576
let kinds = generator.kindCounts.sorted { $0.value > $1.value }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
let nonASCII = feedBytes.withUnsafeBufferPointer { buffer in buffer.reduce(0) { $0 + ($1 >= 0x80 ? 1 : 0) } }
print(
    "orgsocial-bench: \(fixed(fileMiB, 2)) MiB feed (\(feedBytes.count) bytes, seed \(options.seed), "
        + "\(fixed(Double(nonASCII) * 100 / Double(max(feedBytes.count, 1)), 1))% non-ASCII bytes), generated in \(generationTime)"
)
print("  posts: \(generator.ownPostIDs.count) (\(kinds))")

if let path = options.outputPath {
    guard FileManager.default.createFile(atPath: path, contents: Data(feedBytes)) else { fail("cannot write \(path)") }
    print("wrote \(path)")
    exit(0)
}

let memory = measureMemory(feedBytes)
printMemory(memory)
if options.memoryOnly { exit(0) }

var checksum = 0
let runs = options.runs
// A first parse, untimed: checks the round trip and warms caches and the allocator.
let warm = OrgSocialParser().parse(bytes: feedBytes)
guard warm.serialized() == feedBytes else { fail("the generated feed does not round-trip") }
guard warm.posts.count == generator.ownPostIDs.count else {
    fail("parsed \(warm.posts.count) posts, generated \(generator.ownPostIDs.count)")
}
let diagnostics = warm.diagnostics.count

let baseline = best(of: runs, checksum: &checksum) { countNewlines(feedBytes) }
let parseIDs = best(of: runs, checksum: &checksum) {
    let feed = OrgSocialParser().parse(bytes: feedBytes)
    var sum = feed.posts.count
    for post in feed.posts { sum &+= post.id?.utf8.count ?? 0 }
    return sum
}
let parseBodies = best(of: runs, checksum: &checksum) {
    let feed = OrgSocialParser().parse(bytes: feedBytes)
    var sum = 0
    for post in feed.posts { sum &+= post.body.utf8.count }
    return sum
}
let bodiesOnly = best(of: runs, checksum: &checksum) {
    var sum = 0
    for post in warm.posts { sum &+= post.body.utf8.count }
    return sum
}
let serialize = best(of: runs, checksum: &checksum) {
    let bytes = warm.serialized()
    let data = Data(bytes)
    return data.count &+ Int(data[data.count / 2])
}

print("")
print("Throughput, best of \(runs) runs (\(ProcessInfo.processInfo.activeProcessorCount) cores):")
let rows: [(String, Double)] = [
    ("(a) baseline: count LF bytes", baseline),
    ("(b) parse + every post ID", parseIDs),
    ("(c) parse + every post body", parseBodies),
    ("    bodies of a parsed feed", bodiesOnly),
    ("(d) serialize + copy to Data", serialize),
]
print(
    "  \(padded("measurement", 32)) \(padded("time ms", 10, right: true)) \(padded("MiB/s", 10, right: true)) \(padded("× baseline", 11, right: true))"
)
for (name, seconds) in rows {
    let rate = fileMiB / seconds
    print(
        "  \(padded(name, 32)) \(padded(fixed(seconds * 1000, 2), 10, right: true)) \(padded(fixed(rate, 1), 10, right: true)) \(padded(fixed(seconds / baseline, 1), 11, right: true))"
    )
}
print("")
let ratio = parseIDs / baseline
let growth = Double(memory.peakAfterKiB - memory.rssBeforeKiB) / (Double(memory.fileBytes) / 1024)
let peak = Double(memory.peakAfterKiB) / (Double(memory.fileBytes) / 1024)
print("Targets:")
print("  parse time / baseline time = \(fixed(ratio, 2)) (target ≤ 5): \(ratio <= 5 ? "met" : "NOT met")")
print(
    "  parse memory growth / file size = \(fixed(growth, 2)) (target ≤ 4): \(growth <= 4 ? "met" : "NOT met"); "
        + "process peak RSS / file size = \(fixed(peak, 2))")
print("  (diagnostics in the feed: \(diagnostics); checksum \(checksum))")
