import Foundation
import OrgSocial
import Testing

/// `Feed.applyChecked`: an edit may keep the errors a feed has but never add one; new warnings are
/// reported, not refused.
struct CheckedChangeTests {
    static let clean = """
        #+TITLE: Checked
        #+NICK: ana

        * Posts
        ** 2026-01-10T09:15:00+0100
        :PROPERTIES:
        :END:

        Hello.

        """

    @Test func anEditThatAddsAnErrorIsRefusedAndTheFeedIsLeftAsItWas() throws {
        var feed = Feed(parsing: Self.clean)
        let refusal = #expect(throws: FeedChangeAddsErrors.self) {
            try feed.applyChecked { try $0.setKeyword("NICK", to: "ana banana") }
        }
        #expect(refusal?.errors.map(\.code) == [.nickHasSpaces])
        #expect(refusal?.localizedDescription.contains("nick") == true)
        #expect(feed.text == Self.clean)
    }

    @Test func anEditMayKeepTheErrorsTheFeedAlreadyHas() throws {
        var feed = Feed(parsing: Self.clean.replacingOccurrences(of: "#+NICK: ana", with: "#+NICK: ana banana"))
        let (_, warnings) = try feed.applyChecked { try $0.setKeyword("DESCRIPTION", to: "Bread.") }
        #expect(warnings.isEmpty)
        #expect(feed.profile.description == "Bread.")
        #expect(FeedValidator().validate(feed).map(\.code).contains(.nickHasSpaces))
    }

    @Test func warningsTheEditAddsAreReturnedAndTheEditIsKept() throws {
        var feed = Feed(parsing: Self.clean)
        let (_, warnings) = try feed.applyChecked { try $0.addKeyword("LINK", value: "not a link") }
        #expect(warnings.map(\.code) == [.invalidLink])
        #expect(feed.text.contains("#+LINK: not a link"))
    }

    @Test func anEditThatChangesNothingReturnsItsValue() throws {
        var feed = Feed(parsing: Self.clean)
        let (value, warnings) = try feed.applyChecked { _ in 42 }
        #expect(value == 42 && warnings.isEmpty && feed.text == Self.clean)
    }

    @Test func addedDiagnosticsAreMatchedByCodeAndMessageNotByLine() {
        let before = [Diagnostic(.invalidLink, line: 3, message: "m")]
        let after = [Diagnostic(.invalidLink, line: 4, message: "m"), Diagnostic(.invalidLink, line: 5, message: "m")]
        #expect(Diagnostic.added(before: before, after: after).map(\.line) == [5])
    }

    /// A feed of 40 posts, every fifth with a warning (tags with a `#`), every seventh a reply.
    static let many: String = {
        var text = "#+TITLE: Many\n#+NICK: ana\n\n* Posts\n"
        for index in 0..<40 {
            text += "** 2026-01-10T09:\(String(format: "%02d", index)):00+0100\n:PROPERTIES:\n"
            if index % 5 == 0 { text += ":TAGS: #tagged\n" }
            if index % 7 == 0 { text += ":REPLY_TO: https://bob.example/social.org#2026-01-01T00:00:00+0000\n" }
            text += ":END:\n\nPost \(index).\n\n"
        }
        return text
    }()

    /// What a check of the whole feed before and after says the edit added.
    private func addedByFullValidation(_ change: (inout Feed) throws -> Void) rethrows -> [Diagnostic] {
        let feed = Feed(parsing: Self.many)
        var edited = feed
        try change(&edited)
        let validator = FeedValidator()
        return Diagnostic.added(before: validator.validate(feed), after: validator.validate(edited))
    }

    @Test func onlyTheTouchedPostsAreReadAgainAndTheAddedWarningsAreThoseOfAWholeCheck() throws {
        let edits: [(String, (inout Feed) throws -> Void)] = [
            (
                "append with a warning",
                { feed in _ = feed.append(try PostDraft.post("New"), at: Date(timeIntervalSince1970: 0)) }
            ),
            ("property in the middle", { try $0.setProperty("TAGS", to: "#more", inPost: "2026-01-10T09:21:00+0100") }),
            ("body of the first post", { try $0.replaceBody(ofPost: "2026-01-10T09:00:00+0100", with: "Changed.") }),
            ("delete a post with a warning", { try $0.deletePost(id: "2026-01-10T09:10:00+0100") }),
            ("delete the last post", { try $0.deletePost(id: "2026-01-10T09:39:00+0100") }),
            ("pin", { try $0.setKeyword("PINNED", to: "2026-01-10T09:05:00+0100") }),
            ("pin a post that is not there", { try $0.setKeyword("PINNED", to: "2026-02-10T09:05:00+0100") }),
        ]
        for (name, edit) in edits {
            var feed = Feed(parsing: Self.many)
            let (_, added) = try feed.applyChecked(edit)
            #expect(added == (try addedByFullValidation(edit)), "\(name)")
        }
        // Somewhere in the middle: the one post's new warning is found (its neighbours are not read).
        var feed = Feed(parsing: Self.many)
        let (_, added) = try feed.applyChecked {
            try $0.setProperty("TAGS", to: "#x", inPost: "2026-01-10T09:22:00+0100")
        }
        #expect(added.map(\.code) == [.invalidTags])
    }

    @Test func anErrorAddedToTheHeaderOrToOnePostInTheMiddleIsRefused() throws {
        var feed = Feed(parsing: Self.many)
        let refusal = #expect(throws: FeedChangeAddsErrors.self) {
            try feed.applyChecked { try $0.setKeyword("NICK", to: "two words") }
        }
        #expect(refusal?.errors.map(\.code) == [.nickHasSpaces])
        let post = #expect(throws: FeedChangeAddsErrors.self) {
            try feed.applyChecked { feed in
                try feed.updatePost(id: "2026-01-10T09:23:00+0100") { $0.pollEnd = "soon" }
            }
        }
        #expect(post?.errors.map(\.code) == [.invalidPollEnd])
        #expect(feed.text == Self.many)
    }
}
