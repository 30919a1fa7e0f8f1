import OrgSocialText
import TestSupport
import Testing

/// Splitting a long post into a thread of statuses within the server's limit.
@Suite
struct ThreadSplitterTests {
    private func splitter(_ max: Int, perURL: Int = 23) -> ThreadSplitter {
        ThreadSplitter(limits: MastodonTextLimits(maxCharacters: max, charactersPerURL: perURL))
    }

    @Test func aTextThatFitsIsOnePartWithoutAMarker() throws {
        #expect(try splitter(500).split("  short post\n") == ["short post"])
        // A long URL fits: it counts 23.
        let url = "https://example.com/" + String(repeating: "x", count: 600)
        #expect(try splitter(30).split("see " + url) == ["see " + url])
    }

    @Test func paragraphsAreTheFirstBoundary() throws {
        let text = "First paragraph is here.\n\nSecond paragraph is here too.\n\nThird one."
        #expect(
            try splitter(60).split(text) == [
                "First paragraph is here. (1/2)", "Second paragraph is here too.\n\nThird one. (2/2)",
            ])
    }

    @Test func thenLinesThenSentencesThenWords() throws {
        #expect(
            try splitter(40).split("Line one is short.\nLine two is short too.\nAnd line three.")
                == ["Line one is short. (1/3)", "Line two is short too. (2/3)", "And line three. (3/3)"])
        #expect(
            try splitter(40).split("One sentence here. Another one! A third? “Quoted.” The end")
                == ["One sentence here. Another one! (1/2)", "A third? “Quoted.” The end (2/2)"])
        #expect(
            try splitter(30).split("words without any stop that go on and on for a while")
                == ["words without any stop (1/3)", "that go on and on for a (2/3)", "while (3/3)"])
    }

    @Test func aWordLongerThanAPartIsCutBetweenCharactersButAURLIsNot() throws {
        let parts = try splitter(50).split(String(repeating: "é", count: 120))
        #expect(
            parts == [
                String(repeating: "é", count: 44) + " (1/3)", String(repeating: "é", count: 44) + " (2/3)",
                String(repeating: "é", count: 32) + " (3/3)",
            ])
        let url = "https://example.com/" + String(repeating: "p", count: 80)
        let glued = String(repeating: "a", count: 60) + "(" + url + ")"
        let urlParts = try splitter(40).split(glued)
        #expect(urlParts.filter { $0.contains(url) }.count == 1)
        #expect(urlParts.allSatisfy { MastodonTextLimits(maxCharacters: 40).count($0) <= 40 })
    }

    @Test func markersAndTheSpoilerCountTowardTheLimit() throws {
        let words = (1...120).map { "word\($0)" }.joined(separator: " ")
        let limits = MastodonTextLimits(maxCharacters: 40)
        let parts = try ThreadSplitter(limits: limits).split(words, spoilerText: "a spoiler")
        #expect(parts.count > 9)
        #expect(parts.first?.hasSuffix(" (1/\(parts.count))") == true)
        #expect(parts.last?.hasSuffix(" (\(parts.count)/\(parts.count))") == true)
        for part in parts {
            #expect(limits.count(part, spoilerText: "a spoiler") <= 40, "\(part)")
        }
    }

    @Test func aLimitWithNoRoomIsATypedError() {
        #expect(throws: OrgSocialTextError.limitTooSmall(maxCharacters: 10, needed: 15)) {
            try splitter(10).split("a b c d e f g h i j k", spoilerText: "12345678")
        }
        #expect(throws: OrgSocialTextError.self) {
            try splitter(25).split("a https://example.com/x b c d e f g h i j k l m")
        }
        let description = OrgSocialTextError.limitTooSmall(maxCharacters: 10, needed: 15).errorDescription ?? ""
        #expect(description.contains("at most 10 characters") && description.contains("content warning"))
    }

    @Test func randomTextsSplitIntoPartsWithinTheLimitKeepingEveryWord() throws {
        var random = SplitMix64(seed: 13)
        let vocabulary = [
            "a", "the", "Org", "social", "posts", "émoji", "👩🏽‍💻", "日本語", "https://example.com/a/long/path",
            "@bob@example.com", "(see", "it).", "done.", "why?", "yes!", "#tag",
            "x" + String(repeating: "y", count: 24),
        ]
        for _ in 0..<300 {
            let max = 40 + random.int(300)
            var text = ""
            for _ in 0..<random.int(200) {
                text += random.pick(vocabulary)
                text += random.chance(5) ? "\n\n" : random.chance(5) ? "\n" : " "
            }
            let limits = MastodonTextLimits(maxCharacters: max)
            let parts = try ThreadSplitter(limits: limits).split(text)
            for part in parts {
                #expect(limits.count(part) <= max, "\(max): \(part)")
            }
            let marker = try Regex(#" \(\d+/\d+\)$"#)
            let words = parts.flatMap { $0.replacing(marker, with: "").split(whereSeparator: \.isWhitespace) }
            #expect(words == text.split(whereSeparator: \.isWhitespace))
        }
    }
}
