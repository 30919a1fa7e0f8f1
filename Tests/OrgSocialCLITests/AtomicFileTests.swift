import Foundation
import SystemSupport
import TestSupport
import Testing

@testable import OrgSocialCLI

/// Atomic writes: content, permissions, symbolic links, no leftovers.
struct AtomicFileTests {
    @Test func replacesContentAndKeepsPermissions() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = try folder.write("old\n", to: "social.org")
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: file)
        try AtomicFile.write(Array("new\n".utf8), to: file)
        #expect(try folder.text("social.org") == "new\n")
        let permissions = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        #expect(permissions == 0o640)
        #expect(try folder.fileNames() == ["social.org"])
    }

    @Test func commandsKeepTheFilePermissions() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
        #expect(await runCLI(["post", "--file", file, "--text", "private file"]).status == 0)
        let permissions = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
    }

    @Test func followsSymbolicLinks() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let target = try folder.write("old\n", to: "real.org")
        let link = folder.path("link.org")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        try AtomicFile.write(Array("new\n".utf8), to: link)
        #expect(try folder.text("real.org") == "new\n")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
    }

    @Test func failsWithAClearMessageWhenTheFolderIsMissing() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path("missing/social.org")
        #expect {
            try AtomicFile.write([0x41], to: path)
        } throws: { error in
            guard case .cannotWrite(let reported, let reason)? = error as? CLIError else { return false }
            return reported == path && reason.contains("No such file or directory")
        }
    }
}
