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
}
