import Bridge
import Foundation
import SQLiteStore
import TestSupport
import Testing
import TootClient

@Suite struct BridgeStateTests {
    @Test func anEmptyFileIsMigratedAndTheMigrationIsRecorded() async throws {
        try await withTemporaryFolder { folder in
            let path = folder.path("nested/bridge.sqlite")
            let state = try await BridgeState(path: path)
            #expect(
                try await state.appliedMigrations() == [
                    "bridge 1: accounts, mappings, cursors, runs", "bridge 2: push actions",
                    "bridge 3: pull (remote account IDs, notification cursors)",
                ])
            #expect(try await state.accounts().isEmpty)
            try await state.close()
            let connection = try Connection(path: path, mode: .readOnly)
            #expect(try Migrator.schemaVersion(of: connection) == 3)
            let tables = try connection.query(
                sql: "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name"
            ).map { try $0.value(at: 0, as: String.self) }
            #expect(
                tables == [
                    "accounts", "cursors", "mapping_parts", "mappings", "notification_cursors", "push_actions",
                    "remote_accounts", "runs",
                    "sqlitestore_migrations",
                ])
        }
    }

    @Test func accountsSurviveReopeningTheFile() async throws {
        try await withTemporaryFolder { folder in
            let path = folder.path("bridge.sqlite")
            let account = try sampleAccount()
            do {
                let state = try await BridgeState(path: path)
                try await state.addAccount(account)
                try await state.close()
            }
            let reopened = try await BridgeState(path: path)
            #expect(try await reopened.accounts() == [account])
            #expect(try await reopened.account(named: account.name)?.server.limits.maxCharacters == 500)
            #expect(try await reopened.appliedMigrations().count == 3)
        }
    }

    @Test func aSecondAccountOfTheSameNameIsRefused() async throws {
        try await withTemporaryFolder { folder in
            let state = try await BridgeState(path: folder.path("bridge.sqlite"))
            try await state.addAccount(try sampleAccount())
            await #expect(throws: BridgeError.accountExists(name: "ana@mastodon.example")) {
                try await state.addAccount(try sampleAccount())
            }
            await #expect(throws: BridgeError.invalidValue("an account needs a name")) {
                try await state.addAccount(try sampleAccount(""))
            }
        }
    }

    @Test func updatingTheServerProfileReplacesIt() async throws {
        try await withTemporaryFolder { folder in
            let state = try await BridgeState(path: folder.path("bridge.sqlite"))
            try await state.addAccount(try sampleAccount())
            try await state.updateServer(try sampleProfile(maxCharacters: 5000), ofAccount: "ana@mastodon.example")
            #expect(try await state.account(named: "ana@mastodon.example")?.server.limits.maxCharacters == 5000)
            await #expect(throws: BridgeError.unknownAccount(name: "nobody")) {
                try await state.updateServer(try sampleProfile(), ofAccount: "nobody")
            }
        }
    }

    @Test func aMappingKeepsEveryPartInOrderAndIsFoundByAnyOfThem() async throws {
        try await withTemporaryFolder { folder in
            let state = try await BridgeState(path: folder.path("bridge.sqlite"))
            try await state.addAccount(try sampleAccount())
            var mapping = sampleMapping("2026-01-02T03:04:05+0000", statuses: ["300", "100", "200"])
            mapping.pollID = "poll-1"
            try await state.saveMapping(mapping)
            let feed = mapping.feed
            let stored = try await state.mapping(
                postID: mapping.postID, feed: feed, account: "ana@mastodon.example")
            #expect(stored == mapping)
            #expect(stored?.parts.map(\.statusID) == ["300", "100", "200"])
            #expect(try await state.mapping(statusID: "200", account: "ana@mastodon.example") == mapping)
            #expect(try await state.mapping(statusID: "999", account: "ana@mastodon.example") == nil)
        }
    }

    @Test func savingAMappingAgainReplacesItsParts() async throws {
        try await withTemporaryFolder { folder in
            let state = try await BridgeState(path: folder.path("bridge.sqlite"))
            try await state.addAccount(try sampleAccount())
            try await state.saveMapping(sampleMapping("p1", statuses: ["1", "2", "3"]))
            var edited = sampleMapping("p1", statuses: ["1", "4"])
            edited.contentHash = "new"
            try await state.saveMapping(edited)
            let all = try await state.mappings(feed: edited.feed, account: edited.account)
            #expect(all == [edited])
            #expect(try await state.mapping(statusID: "2", account: edited.account) == nil)
        }
    }

    @Test func aStatusMappedToAnotherPostOrAnUnknownAccountIsRefused() async throws {
        try await withTemporaryFolder { folder in
            let state = try await BridgeState(path: folder.path("bridge.sqlite"))
            try await state.addAccount(try sampleAccount())
            try await state.saveMapping(sampleMapping("p1", statuses: ["1"]))
            await #expect(throws: BridgeError.invalidValue("status 1 is already mapped to post p1")) {
                try await state.saveMapping(sampleMapping("p2", statuses: ["2", "1"]))
            }
            // The refused mapping left nothing behind.
            #expect(
                try await state.mapping(
                    postID: "p2", feed: "https://ana.example/social.org", account: "ana@mastodon.example") == nil)
            await #expect(throws: BridgeError.unknownAccount(name: "bob@elsewhere")) {
                try await state.saveMapping(sampleMapping("p3", statuses: ["3"], account: "bob@elsewhere"))
            }
            await #expect(throws: BridgeError.invalidValue("the mapping of post p4 has no status")) {
                try await state.saveMapping(sampleMapping("p4", statuses: []))
            }
        }
    }

    @Test func removingAMappingForgetsItsStatuses() async throws {
        try await withTemporaryFolder { folder in
            let state = try await BridgeState(path: folder.path("bridge.sqlite"))
            try await state.addAccount(try sampleAccount())
            let mapping = sampleMapping("p1", statuses: ["1", "2"])
            try await state.saveMapping(mapping)
            #expect(try await state.removeMapping(postID: "p1", feed: mapping.feed, account: mapping.account))
            #expect(try await state.removeMapping(postID: "p1", feed: mapping.feed, account: mapping.account) == false)
            #expect(try await state.mapping(statusID: "1", account: mapping.account) == nil)
            // Status 1 is free again.
            try await state.saveMapping(sampleMapping("p2", statuses: ["1"]))
        }
    }

    @Test func cursorsMoveSeparatelyPerDirection() async throws {
        try await withTemporaryFolder { folder in
            let state = try await BridgeState(path: folder.path("bridge.sqlite"))
            try await state.addAccount(try sampleAccount())
            let feed = "https://ana.example/social.org"
            let account = "ana@mastodon.example"
            #expect(try await state.cursor(.pull, feed: feed, account: account) == nil)
            let at = Date(timeIntervalSince1970: 1_780_000_100)
            try await state.setCursor(
                SyncCursor(feed: feed, account: account, direction: .pull, value: "100", updatedAt: at))
            try await state.setCursor(
                SyncCursor(feed: feed, account: account, direction: .push, value: "p1", updatedAt: at))
            let later = SyncCursor(feed: feed, account: account, direction: .pull, value: "250", updatedAt: at + 60)
            try await state.setCursor(later)
            #expect(try await state.cursor(.pull, feed: feed, account: account) == later)
            #expect(try await state.cursor(.push, feed: feed, account: account)?.value == "p1")
            #expect(try await state.cursors(account: account).map(\.direction) == [.pull, .push])
            await #expect(throws: BridgeError.unknownAccount(name: "x")) {
                try await state.setCursor(
                    SyncCursor(feed: feed, account: "x", direction: .push, value: "1", updatedAt: at))
            }
        }
    }

    @Test func theStatusSumsRunsAndKeepsTheLastError() async throws {
        try await withTemporaryFolder { folder in
            let state = try await BridgeState(path: folder.path("bridge.sqlite"))
            try await state.addAccount(try sampleAccount())
            let account = "ana@mastodon.example"
            let feed = "https://ana.example/social.org"
            let start = Date(timeIntervalSince1970: 1_780_000_000)
            let failed = RunRecord(
                feed: feed, account: account, startedAt: start, finishedAt: start + 5,
                counts: RunCounts(pushed: 2), error: "rate limited")
            let completed = RunRecord(
                feed: feed, account: account, startedAt: start + 60, finishedAt: start + 62,
                counts: RunCounts(pushed: 1, edited: 1, deleted: 1, pulled: 3))
            try await state.recordRun(failed)
            try await state.recordRun(completed)
            try await state.saveMapping(sampleMapping("p1", statuses: ["1"]))
            try await state.saveMapping(sampleMapping("p2", statuses: ["2"], origin: .account))
            try await state.saveMapping(sampleMapping("p3", statuses: ["3"], origin: .account))
            let status = try await state.status(ofAccount: account)
            #expect(status.lastRun == completed)
            #expect(status.lastError == failed)
            #expect(status.totals == RunCounts(pushed: 3, edited: 1, deleted: 1, pulled: 3))
            #expect(status.mappedPosts == [.feed: 1, .account: 2])
            #expect(try await state.runs(account: account).map(\.error) == [nil, "rate limited"])
            await #expect(throws: BridgeError.unknownAccount(name: "nobody")) {
                try await state.status(ofAccount: "nobody")
            }
        }
    }

    @Test func removingAnAccountRemovesItsMappingsCursorsAndRuns() async throws {
        try await withTemporaryFolder { folder in
            let state = try await BridgeState(path: folder.path("bridge.sqlite"))
            let account = "ana@mastodon.example"
            let feed = "https://ana.example/social.org"
            let at = Date(timeIntervalSince1970: 1_780_000_000)
            try await state.addAccount(try sampleAccount())
            try await state.saveMapping(sampleMapping("p1", statuses: ["1"]))
            try await state.setCursor(
                SyncCursor(feed: feed, account: account, direction: .pull, value: "1", updatedAt: at))
            try await state.recordRun(
                RunRecord(feed: feed, account: account, startedAt: at, finishedAt: at, counts: RunCounts()))
            try await state.removeAccount(named: account)
            await #expect(throws: BridgeError.unknownAccount(name: account)) {
                try await state.removeAccount(named: account)
            }
            // Added again, it starts from nothing.
            try await state.addAccount(try sampleAccount())
            #expect(try await state.mappings(feed: feed, account: account).isEmpty)
            #expect(try await state.cursors(account: account).isEmpty)
            #expect(try await state.runs(account: account).isEmpty)
        }
    }

    @Test func twoConnectionsWriteTheSameFileConcurrently() async throws {
        try await withTemporaryFolder { folder in
            let path = folder.path("bridge.sqlite")
            let first = try await BridgeState(path: path)
            let second = try await BridgeState(path: path)
            try await first.addAccount(try sampleAccount())
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, state) in [first, second].enumerated() {
                    group.addTask {
                        for number in 0..<40 {
                            try await state.saveMapping(
                                sampleMapping("s\(index)-\(number)", statuses: ["\(index)-\(number)"]))
                        }
                    }
                }
                try await group.waitForAll()
            }
            let fromFirst = try await first.mappings(
                feed: "https://ana.example/social.org", account: "ana@mastodon.example")
            let fromSecond = try await second.mappings(
                feed: "https://ana.example/social.org", account: "ana@mastodon.example")
            #expect(fromFirst.count == 80)
            #expect(fromSecond == fromFirst)
        }
    }

    @Test func aCredentialsDescriptionHidesTheToken() {
        let credential = BridgeCredential(instance: "https://mastodon.example", accessToken: "secret-token")
        #expect(!"\(credential)".contains("secret-token"))
        #expect("\(credential)".contains("https://mastodon.example"))
    }
}

/// Migration `bridge 3`: the account's remote ID and the notification cursor.
@Suite struct BridgePullStateTests {
    @Test func theRemoteAccountAndTheNotificationCursorAreKeptPerAccountAndGoWithIt() async throws {
        try await withTemporaryFolder { folder in
            let state = try await BridgeState(path: folder.path("bridge.sqlite"))
            let account = try sampleAccount()
            try await state.addAccount(account)
            #expect(try await state.remoteAccount(of: account.name) == nil)
            try await state.setRemoteAccount(id: "7", acct: "ana", of: account.name)
            try await state.setRemoteAccount(id: "8", acct: "ana", of: account.name)
            #expect(try await state.remoteAccount(of: account.name)?.id == "8")
            #expect(try await state.notificationCursor(of: account.name) == nil)
            try await state.setNotificationCursor("105", of: account.name, at: Date())
            #expect(try await state.notificationCursor(of: account.name) == "105")
            await #expect(throws: BridgeError.unknownAccount(name: "nobody")) {
                try await state.setNotificationCursor("1", of: "nobody", at: Date())
            }
            try await state.removeAccount(named: account.name)
            try await state.addAccount(account)
            #expect(try await state.remoteAccount(of: account.name) == nil)
            #expect(try await state.notificationCursor(of: account.name) == nil)
            try await state.close()
        }
    }
}
