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

// MARK: - Options

/// What the command line asked for.
struct Options {
    var sizeMiB = 20.0
    var runs = 5
    var memoryOnly = false
    var memoryChildPath: String?
    var seed: UInt64 = 1
    var outputPath: String?
    var unicodePercent = 3

    static func parse(_ arguments: [String]) -> Options {
        var options = Options()
        var rest = arguments[...]
        func value(for name: String) -> String {
            guard let next = rest.popFirst() else { fail("option '\(name)' needs a value") }
            return next
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--size-mb":
                guard let size = Double(value(for: argument)), size > 0 else {
                    fail("--size-mb needs a positive number")
                }
                options.sizeMiB = size
            case "--runs":
                guard let runs = Int(value(for: argument)), runs > 0 else { fail("--runs needs a positive number") }
                options.runs = runs
            case "--seed":
                guard let seed = UInt64(value(for: argument)) else { fail("--seed needs a whole number") }
                options.seed = seed
            case "--memory":
                options.memoryOnly = true
            case "--unicode":
                guard let percent = Int(value(for: argument)), (0...100).contains(percent) else {
                    fail("--unicode needs a percentage from 0 to 100")
                }
                options.unicodePercent = percent
            case "--output":
                options.outputPath = value(for: argument)
            case "--memory-child":
                options.memoryChildPath = value(for: argument)
            case "-h", "--help":
                print(
                    """
                    USAGE: orgsocial-bench [--size-mb N] [--runs N] [--memory] [--seed N] [--unicode P] [--output FILE]

                    Generates a synthetic social.org feed and measures parsing, reading bodies and
                    serializing against a newline-counting baseline, plus the peak memory of one parse.

                    OPTIONS:
                      --size-mb N   size of the generated feed in MiB (default: 20)
                      --runs N      timed runs per measurement, best one reported (default: 5)
                      --memory      measure only the memory of one parse
                      --seed N      generator seed (default: 1)
                      --unicode P   chance in percent that a body word is non-ASCII (default: 3)
                      --output FILE write the generated feed to FILE and stop
                      -h, --help    show this help
                    """)
                exit(0)
            default:
                fail("unknown option '\(argument)'")
            }
        }
        return options
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("Error: \(message)\nSee 'orgsocial-bench --help' for more information.\n".utf8))
    exit(2)
}

// MARK: - Synthetic feed

/// SplitMix64: small, fast and the same on every platform.
struct SplitMix64 {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `range`.
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }

    /// One element of a non-empty array.
    mutating func pick<T>(_ items: [T]) -> T { items[int(0...items.count - 1)] }

    /// `true` with probability `percent`/100.
    mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }
}

/// Builds the feed's bytes.
struct FeedGenerator {
    var random: SplitMix64
    var bytes: [UInt8] = []
    var ownPostIDs: [String] = []
    var pollIDs: [(id: String, options: [String])] = []
    var followed: [String] = []
    var clock = 1_704_063_600  // 2024-01-01T00:00:00+0100 in Unix seconds
    var kindCounts: [String: Int] = [:]

    static let ownURL = "https://bench.example/social.org"

    static let asciiWords: [String] = [
        "org", "social", "emacs", "feed", "post", "reply", "relay", "thread", "plain", "text", "file", "mode",
        "the", "a", "and", "of", "to", "in", "is", "it", "that", "for", "on", "with", "as", "this", "was", "today",
        "*bold*", "/italic/", "~code~", "=verbatim=", "[[https://example.org/page][a link]]",
    ]
    static let unicodeWords: [String] = [
        "café", "naïve", "façade", "über", "smørrebrød", "jalapeño", "Ελληνικά", "русский", "日本語", "中文", "한국어",
        "עברית", "العربية", "हिन्दी", "🎉", "🚀", "❤️", "👩‍💻", "🇪🇸", "😊", "👍🏽", "🧵", "λ", "→", "…", "“quoted”",
    ]
    static let words = asciiWords + unicodeWords
    static let moods = ["😊", "❤", "🚀", "🎉", "👍", "🤔", "😂", "🔥", "👀", "🙏"]
    static let languages = ["en", "es", "ca", "fr", "de", "pt-br", "ja"]
    static let tags = ["emacs", "org-mode", "linux", "fediverse", "programming", "swift", "music", "books", "food"]
    static let clients = ["org-social.el", "orgsocial", "org-social.nvim", "org-social-rs"]
    static let groups = [
        "Emacs Users https://relay.example", "Swift on Linux https://relay.example", "Readers https://relay2.example",
    ]

    /// The chance, in percent, that a body word is a non-ASCII one.
    let unicodePercent: Int

    init(seed: UInt64, unicodePercent: Int) {
        random = SplitMix64(state: seed)
        self.unicodePercent = unicodePercent
    }

    mutating func write(_ text: String) { bytes.append(contentsOf: text.utf8) }

    mutating func generate(size target: Int) -> [UInt8] {
        bytes.reserveCapacity(target + 4096)
        header()
        write("* Posts\n")
        while bytes.count < target { post() }
        return bytes
    }

    mutating func header() {
        write(
            """
            #+TITLE: Bench feed — a synthetic journal ✍️
            #+NICK: bench
            #+DESCRIPTION: Generated by orgsocial-bench: every kind of post, Unicode and emoji 🚀
            #+AVATAR: https://bench.example/avatar.png
            #+LINK: https://bench.example
            #+LINK: https://code.example/bench
            #+LOCATION: València, España
            #+BIRTHDAY: 1990-05-14
            #+LANGUAGE: en es ca
            #+PINNED: 2024-01-01T00:10:00+0100
            #+CONTACT: mailto:bench@example.org
            #+CONTACT: xmpp:bench@example.org
            #+OPTIONS: toc:nil

            """)
        for group in Self.groups { write("#+GROUP: \(group)\n") }
        for index in 0..<200 {
            let url = "https://friend\(index).example/social.org"
            followed.append(url)
            if index % 3 == 0 {
                write("#+FOLLOW: \(url)\n")
            } else if index % 3 == 1 {
                write("#+FOLLOW: friend\(index) \(url)\n")
            } else {
                write("#+FOLLOW: Friend \(index)'s \"journal\" (\(Self.words[index % Self.words.count])) \(url)\n")
            }
        }
        write("\n")
    }

    /// The next post ID: the clock moves forward 1 s to 1 h; a few IDs use the `+hh:mm` spelling.
    mutating func nextID() -> String {
        clock += random.int(1...3600)
        let id = formatTimestamp(clock, offsetMinutes: 60, colon: random.chance(5))
        ownPostIDs.append(id)
        return id
    }

    /// A reference to a post of a followed feed.
    mutating func foreignReference() -> String {
        let seconds = 1_700_000_000 + random.int(0...30_000_000)
        return
            "\(random.pick(followed))#\(formatTimestamp(seconds, offsetMinutes: random.pick([0, 60, 120, -300]), colon: false))"
    }

    /// A reference to one of this feed's own earlier posts, or a foreign one.
    mutating func anyReference() -> String {
        if !ownPostIDs.isEmpty, random.chance(30) { return "\(Self.ownURL)#\(random.pick(ownPostIDs))" }
        return foreignReference()
    }

    /// A paragraph of about `length` bytes, wrapped at about 76 columns.
    mutating func paragraph(_ length: Int) -> String {
        var text = ""
        var column = 0
        while text.utf8.count < length {
            var word = random.chance(unicodePercent) ? random.pick(Self.unicodeWords) : random.pick(Self.asciiWords)
            if random.chance(2) { word = "[[org-social:\(random.pick(followed))][friend]]" }
            if column + word.utf8.count > 76 {
                text += "\n"
                column = 0
            } else if !text.isEmpty {
                text += " "
                column += 1
            }
            text += word
            column += word.utf8.count
        }
        return text + "."
    }

    /// A body of `length` bytes in paragraphs (one to four), sometimes with a list.
    mutating func body(_ length: Int) -> String {
        var parts: [String] = []
        var left = length
        while left > 0 {
            let size = min(left, random.int(80...600))
            parts.append(paragraph(size))
            left -= size + 2
            if random.chance(10) { parts.append("- \(paragraph(30))\n- \(paragraph(40))") }
        }
        return parts.joined(separator: "\n\n")
    }

    mutating func properties(_ entries: [(String, String)]) {
        write(":PROPERTIES:\n")
        for (name, value) in entries { write(":\(name): \(value)\n") }
        write(":END:\n")
    }

    mutating func common() -> [(String, String)] {
        var entries: [(String, String)] = []
        if random.chance(70) { entries.append(("LANG", random.pick(Self.languages))) }
        if random.chance(40) { entries.append(("TAGS", "\(random.pick(Self.tags)) \(random.pick(Self.tags))")) }
        entries.append(("CLIENT", random.pick(Self.clients)))
        return entries
    }

    mutating func post() {
        let id = nextID()
        write("** \(id)\n")
        let roll = random.int(0...99)
        let kind: String
        switch roll {
        case 0..<40:
            kind = "post"
            var entries = common()
            if random.chance(20) { entries.append(("MOOD", random.pick(Self.moods))) }
            properties(entries)
            write("\n\(body(random.int(100...2000)))\n")
        case 40..<55:
            kind = "reply"
            properties(common() + [("REPLY_TO", anyReference())])
            write("\n[[org-social:\(random.pick(followed))][friend]] \(body(random.int(100...1200)))\n")
        case 55..<62:
            kind = "reaction"
            properties([
                ("CLIENT", random.pick(Self.clients)), ("REPLY_TO", anyReference()), ("MOOD", random.pick(Self.moods)),
            ])
        case 62..<66:
            kind = "poll"
            let options = (0..<random.int(2...5)).map { "Option \($0 + 1) \(random.pick(Self.words))" }
            pollIDs.append((id, options))
            properties(common() + [("POLL_END", formatTimestamp(clock + 86_400 * 7, offsetMinutes: 60, colon: false))])
            write("\n\(paragraph(random.int(60...300)))?\n\n")
            for option in options { write("- [ ] \(option)\n") }
        case 66..<72:
            kind = "vote"
            if let poll = pollIDs.last, random.chance(60) {
                properties([
                    ("CLIENT", random.pick(Self.clients)), ("REPLY_TO", "\(Self.ownURL)#\(poll.id)"),
                    ("POLL_OPTION", random.pick(poll.options)),
                ])
            } else {
                properties([
                    ("CLIENT", random.pick(Self.clients)), ("REPLY_TO", foreignReference()),
                    ("POLL_OPTION", "Option 1 emacs"),
                ])
            }
            if random.chance(30) { write("\n\(paragraph(random.int(40...200)))\n") }
        case 72..<77:
            kind = "boost"
            properties([("CLIENT", random.pick(Self.clients)), ("INCLUDE", foreignReference())])
        case 77..<81:
            kind = "quote-boost"
            properties(common() + [("INCLUDE", foreignReference())])
            write("\n\(body(random.int(100...800)))\n")
        case 81..<88:
            kind = "group"
            properties(common() + [("GROUP", random.pick(Self.groups))])
            write("\n\(body(random.int(100...1500)))\n")
        case 88..<91:
            kind = "mention-only"
            properties(common() + [("VISIBILITY", "mention")])
            write("\n[[org-social:\(random.pick(followed))][friend]] \(body(random.int(100...600)))\n")
        case 91..<98:
            kind = "titled"
            properties(common())
            write("\n*** \(paragraph(random.int(20...60)))\n\n\(body(random.int(100...900)))\n\n")
            write("#+BEGIN_SRC swift\nlet feed = OrgSocialParser().parse(bytes: bytes)\n")
            write("for post in feed.posts where post.kind == .poll {\n    print(post.pollOptions)\n}\n#+END_SRC\n\n")
            write("**** Notes\n\n\(paragraph(random.int(80...300)))\n")
        case 98:
            kind = "bot"
            properties([("CLIENT", "weather-bot"), ("BOT", "weather Valencia 21C sunny")])
            write("\nWeather in València: 21 °C, sunny ☀️\n")
        default:
            kind = "migration"
            properties([("MIGRATION", "https://old.example/social.org \(Self.ownURL)")])
        }
        kindCounts[kind, default: 0] += 1
        write("\n")
    }
}

/// `YYYY-MM-DDThh:mm:ss+hhmm` (or `+hh:mm`) for Unix seconds at a fixed offset.
func formatTimestamp(_ seconds: Int, offsetMinutes: Int, colon: Bool) -> String {
    let local = seconds + offsetMinutes * 60
    let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
    let secondOfDay = local - days * 86_400
    // Howard Hinnant's days-to-civil algorithm.
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let mp = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    func pad(_ value: Int, _ width: Int = 2) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
    let sign = offsetMinutes < 0 ? "-" : "+"
    let offset = abs(offsetMinutes)
    return "\(pad(year, 4))-\(pad(month))-\(pad(day))T\(pad(secondOfDay / 3600)):\(pad(secondOfDay % 3600 / 60)):"
        + "\(pad(secondOfDay % 60))\(sign)\(pad(offset / 60))\(colon ? ":" : "")\(pad(offset % 60))"
}

// MARK: - Measuring

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
        for b in buffer where b == 10 { n += 1 }
        return n
    }
}

// MARK: - Memory child

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

// MARK: - Output

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

// MARK: - Main

let options = Options.parse(Array(CommandLine.arguments.dropFirst()))
if let path = options.memoryChildPath { memoryChild(path: path) }

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
