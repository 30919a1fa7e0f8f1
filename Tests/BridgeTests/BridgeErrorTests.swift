import Bridge
import Foundation
import Testing

/// The bridge's error messages say what went wrong and name nothing of the command-line tool: no option,
/// command or environment variable (the tool adds those).
@Suite struct BridgeErrorTests {
    static let messages: [String] = {
        let bridgeErrors: [BridgeError] = [
            .storage(path: "/data/bridge.sqlite", reason: "disk I/O error"),
            .busy(lockPath: "/data/bridge.sqlite.lock", holder: "42", waited: .seconds(3)),
            .cannotLock(lockPath: "/data/bridge.sqlite.lock", reason: "permission denied"),
            .accountExists(name: "work"), .unknownAccount(name: "work"), .invalidValue("an account needs a name"),
            .authorizationTimedOut(waited: .seconds(300)),
            .unreadableImage(target: "cat.png", reason: "the file cannot be read"),
        ]
        let feedErrors: [BridgeFeedError] = [
            .file(path: "/home/ana/social.org", reason: "write failed: No space left on device"),
            .noFile(path: "/home/ana/social.org"),
            .readOnly(url: "https://ana.example/social.org"),
        ]
        return bridgeErrors.map(\.localizedDescription) + feedErrors.map(\.localizedDescription)
    }()

    @Test(arguments: messages)
    func aMessageNamesNoOptionCommandOrVariable(message: String) {
        #expect(!message.contains("--"))
        #expect(!message.contains("orgsocial"))
        #expect(!message.contains("ORGSOCIAL_"))
        #expect(message.hasSuffix("."))
    }

    @Test func theMessagesSayWhatFailed() {
        #expect(
            BridgeError.busy(lockPath: "/d/b.lock", holder: "42", waited: .seconds(3)).localizedDescription
                == "Another bridge run (process 42) is using this state file (lock /d/b.lock); waited 3 s.")
        #expect(
            BridgeFeedError.noFile(path: "/h/social.org").localizedDescription
                == "The feed /h/social.org cannot be updated: there is no file there.")
    }
}
