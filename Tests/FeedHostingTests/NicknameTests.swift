import Testing

@testable import FeedHosting

/// The Host API's nickname rules, with Python's `str.isalnum` for letters and digits.
struct NicknameTests {
    @Test func acceptsLettersAndDigitsOfAnyScriptHyphensAndUnderscores() {
        let nicks = ["abc", "a-b_c", "ñandú", "日本語", "Ωmega2", "٣٤٥", "x½y", String(repeating: "a", count: 50)]
        for nick in nicks {
            #expect(Nickname.problem(with: nick) == nil, "\(nick)")
        }
    }

    @Test func refusesWithTheReferenceMessages() {
        #expect(Nickname.problem(with: "") == "Nickname is required")
        #expect(Nickname.problem(with: "ab") == "Nickname must be at least 3 characters")
        #expect(Nickname.problem(with: "é") == "Nickname must be at least 3 characters")
        #expect(Nickname.problem(with: String(repeating: "b", count: 51)) == "Nickname must be at most 50 characters")
        for nick in ["a.b", "a b", "a/b", "emoji😀", "tab\there", "dot."] {
            #expect(
                Nickname.problem(with: nick) == "Nickname can only contain letters, numbers, hyphens, and underscores",
                "\(nick)")
        }
    }
}
