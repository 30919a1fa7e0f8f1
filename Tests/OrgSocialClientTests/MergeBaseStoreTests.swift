import Foundation
import OrgSocialClient
import TestSupport
import Testing

/// `MergeBaseStore`: one base per file and feed URL, so that copies of a file never share one.
struct MergeBaseStoreTests {
    /// The feed URL the bases are for.
    private let url = URL(string: "http://127.0.0.1:1/social.org") ?? URL(fileURLWithPath: "/social.org")

    @Test func aBaseBelongsToOneFileAndOneURLAndALinkReachesItsFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = MergeBaseStore(folder: folder.path("state"))
        let laptop = try folder.write("#+TITLE: a\n", to: "laptop.org")
        let desktop = try folder.write("#+TITLE: a\n", to: "desktop.org")
        try FileManager.default.createSymbolicLink(atPath: folder.path("link.org"), withDestinationPath: laptop)
        let other = try #require(URL(string: "http://127.0.0.1:1/other.org"))

        try store.record(Array("one".utf8), ofFile: laptop, at: url)
        #expect(store.base(ofFile: laptop, at: url) == Array("one".utf8))
        #expect(store.base(ofFile: folder.path("link.org"), at: url) == Array("one".utf8))
        #expect(store.base(ofFile: desktop, at: url) == nil)
        #expect(store.base(ofFile: laptop, at: other) == nil)

        try store.record(Array("two".utf8), ofFile: desktop, at: url)
        #expect(store.base(ofFile: laptop, at: url) == Array("one".utf8))
    }

    @Test func aDamagedCopyIsNoBaseAndRecordingForgetsShownConflicts() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = MergeBaseStore(folder: folder.path("state"))
        let file = try folder.write("#+TITLE: a\n", to: "social.org")
        store.recordShownConflicts(ours: Array("o".utf8), theirs: Array("t".utf8), ofFile: file, at: url)
        #expect(store.shownConflicts(ofFile: file, at: url)?.theirs == Array("t".utf8))
        try store.record(Array("agreed".utf8), ofFile: file, at: url)
        #expect(store.shownConflicts(ofFile: file, at: url) == nil)

        let copies = try FileManager.default.contentsOfDirectory(atPath: folder.path("state"))
        let copy = try #require(copies.first { $0.hasSuffix(".org") })
        try "tampered".write(toFile: folder.path("state/" + copy), atomically: true, encoding: .utf8)
        #expect(store.base(ofFile: file, at: url) == nil)
    }

    @Test func withoutAHomeNothingIsKeptAndRecordingSaysSo() {
        let store = MergeBaseStore(environment: [:])
        #expect(store.folder == nil)
        #expect(throws: MergeBaseStoreError.self) { try store.record(Array("x".utf8), ofFile: "/tmp/x.org", at: url) }
        #expect(store.base(ofFile: "/tmp/x.org", at: url) == nil)
        #expect(MergeBaseStore(environment: ["HOME": "/home/ana"]).folder == "/home/ana/.local/state/orgsocial/bases")
        #expect(
            MergeBaseStore(environment: ["HOME": "/home/ana", "XDG_STATE_HOME": "/state"]).folder
                == "/state/orgsocial/bases")
    }

    @Test func aBaseThatCannotBeSavedIsReportedNamingTheFolder() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // A file where the folder should be: neither a root nor anyone else can create the folder there.
        try folder.write("not a folder", to: "state")
        let store = MergeBaseStore(folder: folder.path("state") + "/bases")
        let file = try folder.write("#+TITLE: a\n", to: "social.org")
        #expect(
            throws: MergeBaseStoreError.cannotSave(
                folder: folder.path("state") + "/bases", reason: "the folder cannot be created")
        ) {
            try store.record(Array("agreed".utf8), ofFile: file, at: url)
        }
        let message = MergeBaseStoreError.cannotSave(folder: "/s/bases", reason: "x").localizedDescription
        #expect(message.contains("could not be saved in /s/bases"))
    }
}
