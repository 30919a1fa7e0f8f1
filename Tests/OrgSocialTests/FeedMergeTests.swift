import Foundation
import OrgSocial
import Testing

/// `FeedMerge`: the three-way merge of the local file, the remote feed and the version last published
/// from here. Every expected result is written out in full, so a byte moved anywhere fails the test.
struct FeedMergeTests {
    /// The version last published from here: a header and three posts.
    static let base = """
        #+TITLE: Merge test
        #+NICK: ana
        # a comment kept as it is
        #+FOLLOW: https://a.example/social.org

        * Posts
        ** 2026-01-01T10:00:00+0000
        :PROPERTIES:
        :LANG: en
        :END:

        One.

        ** 2026-01-02T10:00:00+0000
        Two.

        ** 2026-01-03T10:00:00+0000
        Three.

        """

    /// ``base`` with `old` replaced by `new` (exactly once).
    private func edited(_ old: String, _ new: String) -> String { edited(Self.base, old, new) }

    /// `text` with `old` replaced by `new` (exactly once).
    private func edited(_ text: String, _ old: String, _ new: String) -> String {
        let parts = text.components(separatedBy: old)
        precondition(parts.count == 2, "the test's text to replace must occur once: \(old)")
        return parts.joined(separator: new)
    }

    private func merge(
        base: String = base, ours: String, theirs: String, resolving resolution: FeedMerge.Resolution = .none
    ) -> FeedMerge {
        FeedMerge(
            base: Feed(parsing: base), ours: Feed(parsing: ours), theirs: Feed(parsing: theirs),
            resolving: resolution)
    }

    // MARK: - One side changed

    @Test func nothingChangedGivesTheLocalBytes() {
        let result = merge(ours: Self.base, theirs: Self.base)
        #expect(result.feed?.text == Self.base)
        #expect(result.conflicts.isEmpty)
        #expect(result.changesFromTheirs.isEmpty)
    }

    @Test func onlyLocalChangesKeepTheLocalFileByteForByte() {
        let ours = edited("Two.\n", "Two, edited here.\n") + "\n** 2026-01-04T10:00:00+0000\nFour.\n"
        let result = merge(ours: ours, theirs: Self.base)
        #expect(result.feed?.text == ours)
        #expect(result.changesFromOurs == FeedMerge.Changes(addedPosts: 1, editedPosts: 1))
        #expect(result.changesFromTheirs.isEmpty)
    }

    @Test func onlyRemoteChangesAreTaken() {
        var theirs = edited("Two.\n", "Two, edited there.\n")
        theirs = edited(theirs, "** 2026-01-01T10:00:00+0000\n:PROPERTIES:\n:LANG: en\n:END:\n\nOne.\n\n", "")
        theirs += "\n** 2026-01-04T10:00:00+0000\nFour.\n"
        let result = merge(ours: Self.base, theirs: theirs)
        #expect(result.feed?.text == theirs)
        #expect(result.changesFromTheirs == FeedMerge.Changes(addedPosts: 1, editedPosts: 1, deletedPosts: 1))
    }

    // MARK: - Both sides changed different things

    @Test func postsAddedOnBothSidesAreAllKeptInIDOrder() {
        let ours = Self.base + "\n** 2026-01-05T10:00:00+0000\nFive, from here.\n"
        let theirs =
            Self.base + "\n** 2026-01-04T10:00:00+0000\nFour, from the phone.\n"
            + "\n** 2026-01-06T10:00:00+0000\nSix, from the phone.\n"
        let result = merge(ours: ours, theirs: theirs)
        #expect(
            result.feed?.text == Self.base + "\n** 2026-01-04T10:00:00+0000\nFour, from the phone.\n"
                + "\n** 2026-01-05T10:00:00+0000\nFive, from here.\n"
                + "\n** 2026-01-06T10:00:00+0000\nSix, from the phone.\n")
        #expect(result.conflicts.isEmpty)
        #expect(result.changesFromTheirs.addedPosts == 2)
        #expect(result.changesFromOurs.addedPosts == 1)
    }

    @Test func aRemotePostOlderThanEveryLocalOneGoesFirst() {
        let theirs = edited("* Posts\n", "* Posts\n** 2025-12-31T10:00:00+0000\nZero.\n\n")
        let result = merge(ours: Self.base, theirs: theirs)
        #expect(result.feed?.text == theirs)
    }

    @Test func editsAndDeletesOnDifferentPostsCombine() {
        let ours = edited("One.\n", "One, edited here.\n")
        let theirs = edited(edited("Three.\n", "Three, edited there.\n"), "** 2026-01-02T10:00:00+0000\nTwo.\n\n", "")
        let result = merge(ours: ours, theirs: theirs)
        #expect(
            result.feed?.text
                == edited(
                    edited(ours, "Three.\n", "Three, edited there.\n"), "** 2026-01-02T10:00:00+0000\nTwo.\n\n", ""))
        #expect(result.conflicts.isEmpty)
    }

    @Test func deletingTheLastPostRemovesTheBlankLineBeforeIt() {
        let theirs = edited("Two.\n\n** 2026-01-03T10:00:00+0000\nThree.\n", "Two.\n")
        let ours = edited("One.\n", "One!\n")
        let result = merge(ours: ours, theirs: theirs)
        #expect(result.feed?.text == edited(ours, "Two.\n\n** 2026-01-03T10:00:00+0000\nThree.\n", "Two.\n"))
    }

    @Test func deletingEveryPostOnOneSideKeepsTheOtherSidesNewPost() {
        let theirs =
            "#+TITLE: Merge test\n#+NICK: ana\n# a comment kept as it is\n"
            + "#+FOLLOW: https://a.example/social.org\n\n* Posts\n"
        let ours = Self.base + "\n** 2026-01-04T10:00:00+0000\nFour.\n"
        let result = merge(ours: ours, theirs: theirs)
        #expect(result.feed?.text == theirs + "** 2026-01-04T10:00:00+0000\nFour.\n")
    }

    @Test func theSameChangeOnBothSidesIsTakenOnce() {
        let changed = edited("Two.\n", "Two, fixed.\n") + "\n** 2026-01-04T10:00:00+0000\nFour.\n"
        let result = merge(ours: changed, theirs: changed)
        #expect(result.feed?.text == changed)
        #expect(result.conflicts.isEmpty)
    }

    // MARK: - Conflicts

    @Test func aPostEditedDifferentlyOnBothSidesIsAConflict() throws {
        let ours = edited("Two.\n", "Two, here.\n")
        let theirs = edited("Two.\n", "Two, there.\n") + "\n** 2026-01-04T10:00:00+0000\nFour.\n"
        let result = merge(ours: ours, theirs: theirs)
        #expect(result.feed == nil)
        let conflict = try #require(result.conflicts.first)
        #expect(result.conflicts.count == 1)
        #expect(conflict.subject == .post(id: "2026-01-02T10:00:00+0000"))
        #expect(conflict.kind == .editedOnBothSides)
        #expect(conflict.base == "** 2026-01-02T10:00:00+0000\nTwo.")
        #expect(conflict.ours == "** 2026-01-02T10:00:00+0000\nTwo, here.")
        #expect(conflict.theirs == "** 2026-01-02T10:00:00+0000\nTwo, there.")

        let kept = merge(ours: ours, theirs: theirs, resolving: .ours)
        #expect(kept.feed?.text == ours + "\n** 2026-01-04T10:00:00+0000\nFour.\n")
        #expect(kept.conflicts.count == 1)
        let taken = merge(ours: ours, theirs: theirs, resolving: .theirs)
        #expect(taken.feed?.text == theirs)
    }

    @Test func anEditAgainstADeleteIsAConflictBothWays() throws {
        let deleted = edited("** 2026-01-02T10:00:00+0000\nTwo.\n\n", "")
        let changed = edited("Two.\n", "Two, edited.\n")
        let editedHere = merge(ours: changed, theirs: deleted)
        #expect(editedHere.feed == nil)
        #expect(editedHere.conflicts.map(\.kind) == [.editedHereDeletedThere])
        #expect(merge(ours: changed, theirs: deleted, resolving: .theirs).feed?.text == deleted)
        #expect(merge(ours: changed, theirs: deleted, resolving: .ours).feed?.text == changed)

        let deletedHere = merge(ours: deleted, theirs: changed)
        #expect(deletedHere.conflicts.map(\.kind) == [.deletedHereEditedThere])
        #expect(deletedHere.conflicts.first?.ours == nil)
        #expect(merge(ours: deleted, theirs: changed, resolving: .theirs).feed?.text == changed)
    }

    @Test func noBaseMakesEverythingAnAdditionAndSameIDsWithOtherTextConflict() throws {
        let ours = Self.base + "\n** 2026-01-04T10:00:00+0000\nFour, here.\n"
        let theirs =
            Self.base + "\n** 2026-01-04T10:00:00+0000\nFour, there.\n"
            + "\n** 2026-01-05T10:00:00+0000\nFive.\n"
        let result = FeedMerge(base: nil, ours: Feed(parsing: ours), theirs: Feed(parsing: theirs))
        #expect(result.feed == nil)
        #expect(result.conflicts.map(\.subject) == [.post(id: "2026-01-04T10:00:00+0000")])
        #expect(result.conflicts.first?.kind == .addedOnBothSides)

        let first = FeedMerge(
            base: nil, ours: Feed(parsing: Self.base), theirs: Feed(parsing: theirs), resolving: .none)
        #expect(first.feed?.text == theirs)
        #expect(first.changesFromTheirs.addedPosts == 2)
    }

    @Test func noBaseNeverDeletesAPostEitherSideLacks() {
        let ours = edited("** 2026-01-02T10:00:00+0000\nTwo.\n\n", "")
        let result = FeedMerge(base: nil, ours: Feed(parsing: ours), theirs: Feed(parsing: Self.base))
        #expect(result.feed?.text == Self.base)
        #expect(result.changesFromTheirs.addedPosts == 1)
        #expect(result.changesFromOurs.deletedPosts == 0)
    }

    // MARK: - Same ID added on both sides

    @Test func postsAddedOnBothSidesUnderOneIDAreBothKeptTheLocalOneRenamed() {
        let ours = Self.base + "\n** 2026-01-04T10:00:00+0000\nFour, here.\n"
        let theirs = Self.base + "\n** 2026-01-04T10:00:00+0000\nFour, there.\n"
        let result = merge(ours: ours, theirs: theirs)
        #expect(result.conflicts.isEmpty)
        #expect(
            result.renamedPosts == [
                FeedMerge.RenamedPost(oldID: "2026-01-04T10:00:00+0000", newID: "2026-01-04T10:00:01+0000")
            ])
        #expect(
            result.feed?.text
                == Self.base + "\n** 2026-01-04T10:00:00+0000\nFour, there.\n"
                + "\n** 2026-01-04T10:00:01+0000\nFour, here.\n")
    }

    @Test func aRenamedPostSkipsTakenSecondsAndItsDrawerIDMovesToo() {
        let ours =
            Self.base
            + "\n** Four\n:PROPERTIES:\n:ID: 2026-01-04T10:00:00+0100\n:END:\nFour, here.\n"
        let theirs =
            Self.base + "\n** 2026-01-04T10:00:00+0100\nFour, there.\n"
            + "\n** 2026-01-04T10:00:01+0100\nFour and a second.\n"
        let result = merge(ours: ours, theirs: theirs)
        #expect(result.renamedPosts.map(\.newID) == ["2026-01-04T10:00:02+0100"])
        let ids = result.feed?.posts.map(\.id) ?? []
        #expect(ids.suffix(3) == ["2026-01-04T10:00:00+0100", "2026-01-04T10:00:01+0100", "2026-01-04T10:00:02+0100"])
        #expect(result.feed?.text.contains(":ID: 2026-01-04T10:00:02+0100\n:END:\nFour, here.\n") == true)
    }

    // MARK: - Conflicts answered by an edit

    @Test func aConflictShownThenEditedLocallyIsSettledWithTheEdit() {
        let ours = edited("Two.\n", "Two, here.\n")
        let theirs = edited("Two.\n", "Two, there.\n")
        let shown = FeedMerge.ShownConflicts(ours: Feed(parsing: ours), theirs: Feed(parsing: theirs))
        let answer = edited("Two.\n", "Two, as both want it.\n")
        let settled = FeedMerge(
            base: Feed(parsing: Self.base), ours: Feed(parsing: answer), theirs: Feed(parsing: theirs), shown: shown)
        #expect(settled.conflicts.isEmpty)
        #expect(settled.feed?.text == answer)

        // Unedited, it is still a conflict; so it is when the remote version moved on since it was shown.
        let unedited = FeedMerge(
            base: Feed(parsing: Self.base), ours: Feed(parsing: ours), theirs: Feed(parsing: theirs), shown: shown)
        #expect(unedited.feed == nil)
        let movedOn = FeedMerge(
            base: Feed(parsing: Self.base), ours: Feed(parsing: answer),
            theirs: Feed(parsing: edited("Two.\n", "Two, there, again.\n")), shown: shown)
        #expect(movedOn.conflicts.map(\.subject) == [.post(id: "2026-01-02T10:00:00+0000")])
    }

    @Test func changesBetweenTwoVersionsCountPostsAndKeywords() {
        let new =
            edited(
                edited("#+TITLE: Merge test\n", "#+TITLE: Renamed\n"), "** 2026-01-02T10:00:00+0000\nTwo.\n\n", "")
            + "\n** 2026-01-04T10:00:00+0000\nFour.\n"
        let changes = FeedMerge.Changes(from: Feed(parsing: Self.base), to: Feed(parsing: edited(new, "Three.", "3.")))
        #expect(changes == FeedMerge.Changes(addedPosts: 1, editedPosts: 1, deletedPosts: 1, keywords: ["TITLE"]))
    }

    // MARK: - Header keywords

    @Test func keywordsMergeOneByOne() {
        let ours = edited("#+TITLE: Merge test\n", "#+TITLE: A new title\n")
        let theirs = edited("#+NICK: ana\n", "#+NICK: ana\n#+DESCRIPTION: Written on the phone\n")
        let result = merge(ours: ours, theirs: theirs)
        #expect(
            result.feed?.text == edited(ours, "#+NICK: ana\n", "#+NICK: ana\n#+DESCRIPTION: Written on the phone\n"))
        #expect(result.changesFromTheirs.keywords == ["DESCRIPTION"])
        #expect(result.changesFromOurs.keywords == ["TITLE"])
    }

    @Test func aKeywordChangedOnOneSideKeepsItsLineAndSpelling() {
        let base = edited("#+NICK: ana\n", "#+nick: ana\n")
        let theirs = edited(base, "#+nick: ana\n", "#+nick: ana_b\n")
        let ours = edited(base, "Two.\n", "Two!\n")
        let result = merge(base: base, ours: ours, theirs: theirs)
        #expect(result.feed?.text == edited(ours, "#+nick: ana\n", "#+nick: ana_b\n"))
    }

    @Test func aKeywordRemovedOnOneSideIsRemoved() {
        let theirs = edited("#+FOLLOW: https://a.example/social.org\n", "")
        #expect(merge(ours: Self.base, theirs: theirs).feed?.text == theirs)
    }

    @Test func aSingleValuedKeywordSetDifferentlyIsAConflict() {
        let ours = edited("#+TITLE: Merge test\n", "#+TITLE: Here\n")
        let theirs = edited("#+TITLE: Merge test\n", "#+TITLE: There\n")
        let result = merge(ours: ours, theirs: theirs)
        #expect(result.feed == nil)
        #expect(
            result.conflicts == [
                FeedMergeConflict(
                    subject: .keyword(name: "TITLE"), base: "#+TITLE: Merge test", ours: "#+TITLE: Here",
                    theirs: "#+TITLE: There")
            ])
        #expect(merge(ours: ours, theirs: theirs, resolving: .theirs).feed?.text == theirs)
    }

    @Test func followsAddedAndRemovedOnBothSidesMergeLineByLine() {
        let ours = edited(
            "#+FOLLOW: https://a.example/social.org\n",
            "#+FOLLOW: https://a.example/social.org\n#+FOLLOW: https://b.example/social.org\n")
        let theirs = edited(
            "#+FOLLOW: https://a.example/social.org\n", "#+FOLLOW: https://c.example/social.org\n")
        let result = merge(ours: ours, theirs: theirs)
        #expect(result.conflicts.isEmpty)
        // The line of the follow removed there takes the follow added there; the one added here stays.
        #expect(
            result.feed?.text
                == edited(
                    "#+FOLLOW: https://a.example/social.org\n",
                    "#+FOLLOW: https://c.example/social.org\n#+FOLLOW: https://b.example/social.org\n"))
    }

    // MARK: - Matching

    @Test func reorderingIsNotAChange() {
        let reordered = """
            #+TITLE: Merge test
            #+NICK: ana
            # a comment kept as it is
            #+FOLLOW: https://a.example/social.org

            * Posts
            ** 2026-01-03T10:00:00+0000
            Three.

            ** 2026-01-02T10:00:00+0000
            Two.

            ** 2026-01-01T10:00:00+0000
            :PROPERTIES:
            :LANG: en
            :END:

            One.

            """
        #expect(merge(ours: Self.base, theirs: reordered).feed?.text == Self.base)
        #expect(merge(ours: reordered, theirs: Self.base).feed?.text == reordered)
        // A file written newest first gets a new remote post where it belongs in that order.
        let theirs = edited(reordered, "* Posts\n", "* Posts\n** 2026-01-04T10:00:00+0000\nFour.\n\n")
        #expect(
            merge(base: reordered, ours: reordered, theirs: theirs + "\n** 2026-01-02T12:00:00+0000\nTwo and a half.\n")
                .feed?.text
                == edited(
                    theirs, "** 2026-01-02T10:00:00+0000\n",
                    "** 2026-01-02T12:00:00+0000\nTwo and a half.\n\n** 2026-01-02T10:00:00+0000\n"))
    }

    @Test func postsWithTheSameTextAreTellApartByTheirIDs() {
        let base = "#+TITLE: T\n#+NICK: n\n\n* Posts\n** 2026-01-01T10:00:00+0000\nSame.\n"
        let ours = base + "\n** 2026-01-02T10:00:00+0000\nSame.\n"
        let theirs = base + "\n** 2026-01-03T10:00:00+0000\nSame.\n"
        let result = merge(base: base, ours: ours, theirs: theirs)
        #expect(result.feed?.text == ours + "\n** 2026-01-03T10:00:00+0000\nSame.\n")
        // Deleting one of two posts with the same text deletes only that one.
        let deleted = merge(base: ours, ours: ours, theirs: base)
        #expect(deleted.feed?.text == base)
    }

    @Test func aRemotePostIsWrittenWithTheLocalLineBreaks() {
        let crlf = Self.base.replacingOccurrences(of: "\n", with: "\r\n")
        let theirs = Self.base + "\n** 2026-01-04T10:00:00+0000\nFour.\n"
        let result = merge(base: Self.base, ours: crlf, theirs: theirs)
        #expect(result.feed?.text == crlf + "\r\n** 2026-01-04T10:00:00+0000\r\nFour.\r\n")
    }

    @Test func textOutsideTheChangedPostsIsKeptByteForByte() {
        let ours =
            Self.base.replacingOccurrences(of: "\n\n** 2026-01-02", with: "\n\n\n\n** 2026-01-02")
            + "\n* Notes\nkept as it is   \n"
        let theirs = edited("Three.\n", "Three, edited there.\n")
        let result = merge(ours: ours, theirs: theirs)
        #expect(result.feed?.text == edited(ours, "Three.\n", "Three, edited there.\n"))
    }
}
