import Foundation
import OrgSocialText

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `orgsocial-bench --text`: the text converters on generated statuses and posts (the targets:
/// 10,000 statuses HTML → Org, and 10,000 Org posts → Mastodon text with counting and splitting, each
/// under 1 s in release).
enum TextBenchmark {
    /// Generates the inputs, times both directions (best of `options.runs`) and prints the figures.
    static func run(_ options: Options) {
        var random = SplitMix64(state: options.seed)
        let count = options.statuses
        let statuses = (0..<count).map { _ in status(&random) }
        let posts = (0..<count).map { _ in post(&random) }
        let htmlBytes = statuses.reduce(0) { $0 + $1.html.utf8.count }
        let orgBytes = posts.reduce(0) { $0 + $1.body.utf8.count }
        print(
            "orgsocial-bench --text: \(count) statuses (\(fixed(Double(htmlBytes) / 1_048_576, 2)) MiB of HTML, "
                + "\(htmlBytes / max(count, 1)) bytes on average), \(count) Org posts "
                + "(\(fixed(Double(orgBytes) / 1_048_576, 2)) MiB, \(orgBytes / max(count, 1)) bytes on average), seed \(options.seed)"
        )

        let converter = HTMLOrgConverter(orgSocialFeeds: ["ana@bench.example": "https://ana.example/social.org"])
        let renderer = MastodonTextRenderer(bridgedAccounts: ["https://bob.example/social.org": "bob@masto.example"])
        let splitter = ThreadSplitter(limits: .mastodon)
        var checksum = 0
        var parts = 0
        var split = 0
        var failures = 0
        var cpuToOrg = Double.infinity
        var cpuToMastodon = Double.infinity
        let toOrg = best(of: options.runs, checksum: &checksum) {
            let cpuStart = threadCPUSeconds()
            defer { cpuToOrg = min(cpuToOrg, threadCPUSeconds() - cpuStart) }
            var sum = 0
            for status in statuses {
                let org = converter.convert(status)
                sum &+= org.body.utf8.count &+ org.tags.count
            }
            return sum
        }
        let toMastodon = best(of: options.runs, checksum: &checksum) {
            let cpuStart = threadCPUSeconds()
            defer { cpuToMastodon = min(cpuToMastodon, threadCPUSeconds() - cpuStart) }
            var sum = 0
            parts = 0
            split = 0
            failures = 0
            for post in posts {
                let text = renderer.text(fromOrg: post.body, tags: post.tags)
                sum &+= splitter.limits.count(text, spoilerText: post.spoiler)
                do {
                    let thread = try splitter.split(text, spoilerText: post.spoiler)
                    parts += thread.count
                    if thread.count > 1 { split += 1 }
                    sum &+= thread.count
                } catch {
                    failures += 1
                }
            }
            return sum
        }
        print(
            "Best of \(options.runs) runs (\(ProcessInfo.processInfo.activeProcessorCount) cores; wall clock, and this "
                + "thread's CPU time, which a busy machine inflates less):")
        print(
            "  HTML → Org:            \(padded(fixed(toOrg * 1000, 1), 8, right: true)) ms  "
                + "(CPU \(fixed(cpuToOrg * 1000, 1)) ms; \(fixed(Double(count) / toOrg, 0)) statuses/s; "
                + "target < 1000 ms: \(toOrg < 1 ? "met" : "NOT met"))")
        print(
            "  Org → Mastodon + split:\(padded(fixed(toMastodon * 1000, 1), 8, right: true)) ms  "
                + "(CPU \(fixed(cpuToMastodon * 1000, 1)) ms; \(fixed(Double(count) / toMastodon, 0)) posts/s; "
                + "target < 1000 ms: \(toMastodon < 1 ? "met" : "NOT met"))"
        )
        print(
            "  (\(split) posts over 500 characters split into \(parts) statuses in all; \(failures) failures; checksum \(checksum))"
        )
        let digest = outputDigest(statuses, posts, converter: converter, renderer: renderer, splitter: splitter)
        print("  Output digest (FNV-1a of every Org body, tag, text, count and thread part): \(digest)")
    }

    /// A digest of everything both directions produce for `statuses` and `posts` (run once, untimed): the
    /// same seed must give the same digest before and after a change that is meant to be only faster.
    private static func outputDigest(
        _ statuses: [StatusContent], _ posts: [(body: String, tags: [String], spoiler: String)],
        converter: HTMLOrgConverter, renderer: MastodonTextRenderer, splitter: ThreadSplitter
    ) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ text: String) {
            for byte in text.utf8 {
                hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
            }
            hash = (hash ^ 0xff) &* 0x100_0000_01b3
        }
        for status in statuses {
            let org = converter.convert(status)
            mix(org.body)
            org.tags.forEach(mix)
        }
        for post in posts {
            let text = renderer.text(fromOrg: post.body, tags: post.tags)
            mix(text)
            mix(String(splitter.limits.count(text, spoilerText: post.spoiler)))
            if let thread = try? splitter.split(text, spoilerText: post.spoiler) {
                thread.forEach(mix)
            } else {
                mix("failed")
            }
        }
        return String(hash, radix: 16)
    }

    /// The CPU time this thread has used, in seconds.
    private static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    // MARK: - Inputs

    private static let words = [
        "the", "a", "and", "of", "to", "in", "is", "it", "that", "for", "on", "with", "today", "fediverse", "Org",
        "post", "reply", "thread", "write", "read", "file", "café", "naïve", "日本語", "русский", "🎉", "🚀", "❤️",
        "👩‍💻", "🇪🇸", "“quoted”", "it&#39;s", "&amp;", "&quot;fine&quot;", "x&lt;y",
    ]

    /// A status as Mastodon serves it: paragraphs with mentions, hashtags, shortened links, formatting.
    private static func status(_ random: inout SplitMix64) -> StatusContent {
        var html = ""
        var mentions: [StatusContent.Mention] = []
        var tags: [String] = []
        for paragraph in 0..<random.int(1...3) {
            var text = ""
            for index in 0..<random.int(5...30) {
                if index > 0 { text += random.chance(5) ? "<br />" : " " }
                switch random.int(0...99) {
                case 0...3:
                    let user = random.pick(["ana", "bob", "carol", "dave"])
                    let host = random.pick(["bench.example", "masto.example", "gts.example"])
                    mentions.append(.init(url: "https://\(host)/@\(user)", acct: "\(user)@\(host)", username: user))
                    text +=
                        #"<span class="h-card" translate="no"><a href="https://\#(host)/@\#(user)" class="u-url mention">@<span>\#(user)</span></a></span>"#
                case 4...6:
                    let tag = random.pick(["emacs", "OrgMode", "fediverse", "swift", "linux"])
                    tags.append(tag)
                    text +=
                        #"<a href="https://masto.example/tags/\#(tag)" class="mention hashtag" rel="tag">#<span>\#(tag)</span></a>"#
                case 7...9:
                    let path =
                        "articles/\(random.int(1000...9999))/\(random.pick(["a-long-title-of-an-article", "x", "page?id=3&amp;s=1"]))"
                    text +=
                        #"<a href="https://example.com/\#(path)" target="_blank" rel="nofollow noopener" translate="no"><span class="invisible">https://</span><span class="ellipsis">example.com/\#(path.prefix(20))</span><span class="invisible">\#(path.dropFirst(20))</span></a>"#
                case 10...12:
                    text += "<strong>\(random.pick(words))</strong>"
                case 13...14:
                    text += "<em>\(random.pick(words)) \(random.pick(words))</em>"
                case 15:
                    text += "<code>let x = 1</code>"
                default:
                    text += random.pick(words)
                }
            }
            if paragraph > 0, random.chance(5) {
                html += "<blockquote><p>\(text)</p></blockquote>"
            } else if random.chance(3) {
                html += "<ul><li>\(text)</li><li>\(random.pick(words))</li></ul>"
            } else if random.chance(2) {
                html += "<pre><code>* not a heading\n#+TITLE: x\n\(random.pick(words))</code></pre>"
            } else {
                html += "<p>\(text)</p>"
            }
        }
        let attachments: [StatusContent.Attachment] =
            random.chance(20)
            ? [.init(url: "https://files.example/\(random.int(1...99_999)).png", description: "a picture")] : []
        return StatusContent(
            html: html, spoilerText: random.chance(10) ? "spoilers" : "", mentions: mentions, tags: tags,
            attachments: attachments)
    }

    /// An Org post: paragraphs with links, mentions and markup; one in five long enough to need splitting.
    private static func post(_ random: inout SplitMix64) -> (body: String, tags: [String], spoiler: String) {
        let long = random.chance(20)
        var paragraphs: [String] = []
        for _ in 0..<(long ? random.int(3...8) : random.int(1...3)) {
            var sentence: [String] = []
            for index in 0..<random.int(5...35) {
                switch random.int(0...99) {
                case 0...2: sentence.append("[[https://example.org/posts/\(random.int(1...9999))][a link]]")
                case 3...4: sentence.append("https://example.net/\(random.int(1...9999))/long/path/to/something")
                case 5...6:
                    sentence.append(
                        "[[org-social:https://\(random.pick(["bob", "carol"])).example/social.org][friend]]")
                case 7...9: sentence.append("*\(random.pick(words))*")
                case 10...11: sentence.append("/\(random.pick(words))/")
                case 12: sentence.append("~code~")
                default: sentence.append(random.pick(words).replacingOccurrences(of: "&amp;", with: "&"))
                }
                if index % 9 == 8 { sentence[sentence.count - 1] += random.pick([".", "!", "?"]) }
            }
            paragraphs.append(sentence.joined(separator: " ") + ".")
        }
        if random.chance(5) { paragraphs.append("#+begin_src sh\necho hello\n#+end_src") }
        if random.chance(5) { paragraphs.append("#+begin_quote\nSomething wise.\n#+end_quote") }
        let tags = (0..<random.int(0...3)).map { _ in random.pick(["emacs", "org-mode", "fediverse", "swift"]) }
        return (paragraphs.joined(separator: "\n\n"), tags, random.chance(10) ? "long post" : "")
    }
}
