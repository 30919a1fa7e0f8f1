package import EngineProtocol
import Foundation
package import HTTPClient
package import HTTPCore
import OrgSocial
import OrgSocialClient

/// The engine's state: the account `initialize` set, and whether a local save still waits for its upload.
actor EngineState {
    var account = EngineAccount()
    var canWrite = false
    var uploadPending = false
    /// The own feed as the last write left it: where a new post's ID is first looked for.
    var lastWritten: Feed?

    func configure(_ account: EngineAccount, canWrite: Bool) {
        self.account = account
        self.canWrite = canWrite
        uploadPending = false
        lastWritten = nil
    }

    func setLastWritten(_ feed: Feed) { lastWritten = feed }

    func setFilters(blocked: [String]?, mutedWords: [String]?) {
        if let blocked { account.blocked = blocked }
        if let mutedWords { account.mutedWords = mutedWords }
    }

    func setUploadPending(_ pending: Bool) { uploadPending = pending }
}

/// The engine: the official apps' client-core protocol (engine-protocol.md) over the toolkit's
/// libraries. Each method reads its params, calls the library (the feed editor, FeedPublisher, the
/// local file writer, WriteAnnouncer) and answers the protocol's JSON.
package struct Engine: RPCHandler {
    /// The version `initialize` reports; the TUI warns below 1.3.0.
    package static let engineVersion = "1.3.0"
    /// The protocol version.
    package static let protocolVersion = 1

    let state = EngineState()
    let transport: any HTTPTransport
    let workingDirectory: String

    /// An engine whose HTTP requests go through `transport`.
    /// - Parameters:
    ///   - transport: what sends the requests.
    ///   - workingDirectory: what a relative `file` is resolved against.
    package init(
        transport: any HTTPTransport = CurlTransport(userAgent: "orgsocial-engine"),
        workingDirectory: String = FileManager.default.currentDirectoryPath
    ) {
        self.transport = transport
        self.workingDirectory = workingDirectory
    }

    /// The methods that change the feed: they run one at a time, in arrival order.
    static let writeMethods: Set<String> = [
        "publish", "react", "boost", "vote", "edit", "delete", "pin", "unpin", "follow", "unfollow", "joinGroup",
        "leaveGroup", "updateProfile", "migrate", "applyMigration",
    ]

    package func isWrite(_ method: String) -> Bool { Self.writeMethods.contains(method) }

    package func handle(_ request: RPCRequest) async throws -> JSONValue {
        let params = try request.namedParams()
        switch request.method {
        case "initialize": return try await initialize(params)
        case "setFilters": return try await setFilters(params)
        case "refresh": return try await refresh()
        case "timeline": return try await timeline(params)
        case "profile": return try await profile(params)
        case "post": return try await post(params)
        case "groups": return try await groups()
        case "follows": return try await follows()
        case "ownFeed": return try await ownFeed()
        case "search": return try await search(params)
        case "groupPosts": return try await groupPosts(params)
        case "thread": return try await thread(params)
        case "interactions": return try await interactions(params)
        case "notifications": return try await notifications()
        case "pollResults": return try await pollResults(params)
        case "scheduled": return try await scheduled()
        case "share": return try await share(params)
        case "migrate": return try await migrate(params)
        case "applyMigration": return try await applyMigration(params)
        case "discover": return try await discover(params)
        case "signup": return try await signup(params)
        case "deleteAccount": return try await deleteAccount(params)
        case "publish": return try await publish(params)
        case "react": return try await react(params)
        case "boost": return try await boost(params)
        case "vote": return try await vote(params)
        case "edit": return try await edit(params)
        case "delete": return try await delete(params)
        case "pin": return try await pin(params)
        case "unpin": return try await unpin()
        case "follow": return try await follow(params)
        case "unfollow": return try await unfollow(params)
        case "joinGroup": return try await joinGroup(params, joining: true)
        case "leaveGroup": return try await joinGroup(params, joining: false)
        case "updateProfile": return try await updateProfile(params)
        default: throw RPCError(.methodNotFound, "Unknown method: \(request.method)")
        }
    }

    /// The own-feed store of the current account.
    func store() async -> OwnFeedStore {
        OwnFeedStore(account: await state.account, publisher: FeedPublisher(transport: transport))
    }

    /// The mirror of the current account.
    func mirror() async -> MirrorReader {
        MirrorReader(base: await state.account.mirror, transport: transport)
    }

    // MARK: - Account

    func initialize(_ params: RPCParams) async throws(RPCError) -> JSONValue {
        let account = try EngineAccount(
            params: params, workingDirectory: workingDirectory, previous: await state.account)
        var members: [(String, JSONValue)] = [
            ("protocolVersion", .int(Self.protocolVersion)), ("engineVersion", .string(Self.engineVersion)),
            ("mirror", .string(account.mirrorAsSent)),
        ]
        var canWrite = false
        var extra: [(String, JSONValue)] = []
        if let file = account.file { extra.append(("file", .string(file))) }
        if let feedURL = account.feedURL {
            do {
                let feed = try await OwnFeedStore(account: account, publisher: FeedPublisher(transport: transport))
                    .read()
                canWrite = account.hasWriteTarget
                extra.append(("profile", ProfileJSON.own(feed, feedURL: feedURL.absoluteString)))
            } catch {
                extra.append(("warning", .string("Could not load your feed: \(error.message)")))
            }
        }
        await state.configure(account, canWrite: canWrite)
        members.append(("canWrite", .bool(canWrite)))
        return .object(members + extra)
    }

    func setFilters(_ params: RPCParams) async throws(RPCError) -> JSONValue {
        let blocked = try params.strings("blocked")
        let muted = try params.strings("mutedWords")
        await state.setFilters(blocked: blocked, mutedWords: muted)
        return .object([])
    }

    func refresh() async throws(RPCError) -> JSONValue {
        let account = await state.account
        guard let feedURL = account.feedURL else { throw RPCError.notConfigured }
        if await state.uploadPending, let file = account.file, let destination = account.destination {
            let bytes = try OwnFeedStore.readFile(file).bytes
            if case .failed(let reason) = await store().upload(bytes, to: destination) {
                throw Self.uploadPending(reason)
            }
            await state.setUploadPending(false)
        }
        let relay = await announcer(account, relay: true).announce(feedURL)
        let mirror = relay.mirror
        if case .failed(let reason) = mirror, case .failed = relay.relay {
            throw RPCError(.network, reason)
        }
        return .object([("registered", .bool(relay.relay == .done)), ("refreshed", .bool(mirror == .done))])
    }

    /// Who tells the mirror (and, for `refresh`, the relay) about a write.
    func announcer(_ account: EngineAccount, relay: Bool) -> WriteAnnouncer {
        WriteAnnouncer(
            mirror: URL(string: account.mirror), relay: relay ? URL(string: account.relay) : nil,
            remembering: MergeBaseStore(folder: nil), transport: transport)
    }

    static func uploadPending(_ reason: String) -> RPCError {
        RPCError(
            .uploadPending,
            "Saved to your local file, but the upload failed (\(reason)). It will be published with the next upload.")
    }
}
