internal import CMicroHTTPD
public import HTTPCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// An HTTP/1.1 server: the one adapter between libmicrohttpd and an `HTTPResponder`.
///
/// ```swift
/// var router = Router()
/// router.get("/healthz") { _ in .text("ok") }
/// let server = try HTTPDaemon(configuration: .init(host: "127.0.0.1", port: 0), responder: router)
/// print("listening on port \(server.port)")
/// // ...
/// await server.stop()
/// ```
///
/// ## Threading model
///
/// The daemon runs with `MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION` (with
/// `poll(2)`): one libmicrohttpd thread accepts connections and every connection gets its own thread.
/// When a request is complete, its connection thread starts a `Task` that runs the responder on the
/// Swift concurrency pool and blocks on a semaphore until the response arrives, then queues it.
///
/// This model was chosen over `MHD_ALLOW_SUSPEND_RESUME` with a single polling thread because:
/// - libmicrohttpd's callbacks are synchronous and must queue a response before they return. Blocking is
///   only safe on a thread we don't share: here it is the connection's own thread, never a thread of
///   the Swift pool, so a slow handler delays only its own connection and cannot starve other tasks.
/// - Streams stay simple. A Server-Sent Events body is pulled by the content-reader callback, which may
///   block until the producer writes (returning 0 is forbidden in internal-thread modes) while also
///   watching the client socket, so a disconnect cancels the producer at once.
/// - Suspended connections must all be resumed before `MHD_stop_daemon`, and are not watched for
///   disconnects or timeouts, which makes shutdown and slow-client handling harder to get right.
///
/// The cost is a thread per open connection (about 200 for 200 clients, with the system's default
/// stack reserved but mostly untouched). ``Configuration/connectionLimit`` bounds it. A semaphore (and
/// small `Mutex`es) are used in this bridging layer only, where C threads meet Swift tasks.
///
/// A responder may skip the task hop for cheap requests by answering in
/// `HTTPResponder.respondImmediately(to:)`, which the connection thread calls first: a request then
/// costs no task, no semaphore and no thread switch. The counters every request touches (requests in
/// flight, the shutdown phase) are atomics, so connection threads do not contend on a lock for them.
///
/// ## Limits
///
/// Request bodies are read in full before the responder runs and are capped by
/// ``Configuration/maximumBodyBytes`` (413). Headers are capped by libmicrohttpd's per-connection memory
/// (431). The `Date` header is added by libmicrohttpd; `Content-Length` is derived from byte bodies.
///
/// Before any body is read, the head is checked: an HTTP/1.1 request without exactly one `Host` (RFC
/// 9112, section 3.2) or with a percent-encoded control character in its path gets 400, and the
/// responder may answer from the head alone (`HTTPResponder.respondBeforeBody(to:)`), for example
/// to refuse an upload without credentials.
///
/// ``Configuration/clientLimits`` (``ClientLimits``) adds, when set: an absolute deadline for each
/// request head (a connection past it is cut with `shutdown(2)` by a sweeper task), connections per
/// client (`ClientAddressKey`: an IPv4 address or an IPv6 /64, counted by the tracker rather than
/// `MHD_OPTION_PER_IP_CONNECTION_LIMIT`, which counts each IPv6 address apart), a reserve of
/// connection slots kept by cutting the connection that has waited longest for its head when the server is nearly full, caps on streamed responses in total and per
/// client (503 with `Retry-After`), and a budget of request-body bytes buffered across connections
/// (503 with `Retry-After`, before the body when it declares its length). Connections are tracked
/// through `MHD_OPTION_NOTIFY_CONNECTION`. At start-up the open-file soft limit is raised, up to the
/// hard limit, to three descriptors per connection allowed, and the raise is logged.
///
/// ## Stopping
///
/// ``stop(gracePeriod:)`` is graceful and idempotent. If the object is released without it, `deinit`
/// stops the daemon at once, dropping requests in flight.
public final class HTTPDaemon: Sendable {
    private enum Lifecycle: Sendable {
        case running
        case stopping
        case stopped
    }

    /// The configuration the server was started with.
    public let configuration: Configuration
    /// The port the server listens on; useful when ``Configuration/port`` was 0.
    public let port: Int

    private let core: DaemonCore
    private let socket: ListeningSocket
    private let daemon: DaemonHandle
    private let lifecycle = Mutex(Lifecycle.running)
    /// Cuts connections past the request-head deadline; `nil` without one.
    private let sweeper: Task<Void, Never>?

    /// Binds the address and starts serving `responder` on libmicrohttpd's threads.
    ///
    /// - Parameters:
    ///   - configuration: The address and limits.
    ///   - responder: Answers every request; called concurrently from many tasks.
    ///   - log: Receives libmicrohttpd's diagnostics and the adapter's own (dropped headers, oversized
    ///     bodies), one line each; `nil` discards them. Called from libmicrohttpd's threads.
    /// - Throws: `HTTPServerError`: `.invalidPort`, `.invalidHost`, `.addressInUse` (the port is taken),
    ///   `.permissionDenied`, `.addressNotAvailable`, `.socketFailure` or `.daemonStartFailed`.
    public init(
        configuration: Configuration,
        responder: some HTTPResponder,
        log: (@Sendable (String) -> Void)? = nil
    ) throws(HTTPServerError) {
        guard (0...65535).contains(configuration.port) else { throw .invalidPort(configuration.port) }
        let socket = try ListeningSocket(
            host: configuration.host,
            port: configuration.port,
            backlog: configuration.listenBacklog
        )
        let core = DaemonCore(responder: responder, configuration: configuration, log: log)
        // Every connection holds a descriptor (and a thread); make sure the open-file limit allows them.
        if let raised = FileDescriptorLimit.raise(toAtLeast: configuration.connectionLimit * 3 + 64) {
            core.record("Raised the open-file limit (RLIMIT_NOFILE) from \(raised.from) to \(raised.to).")
        }
        guard let daemonSocket = socket.duplicate() else {
            throw .socketFailure(
                host: configuration.host,
                port: configuration.port,
                operation: "fcntl(F_DUPFD_CLOEXEC)",
                message: String(cString: strerror(errno))
            )
        }
        // If libmicrohttpd refuses to start, `daemonSocket` may or may not have been closed by it; it is
        // left alone rather than risk closing a descriptor another thread has reused.
        guard
            let daemon = DaemonHandle(
                flags: Self.flags(ipv6: socket.isIPv6),
                context: core,
                options: Self.options(configuration, listenSocket: daemonSocket, context: core)
            )
        else {
            throw .daemonStartFailed(
                host: configuration.host,
                port: configuration.port,
                reason: core.lastLogMessage ?? "libmicrohttpd did not start"
            )
        }
        self.configuration = configuration
        self.core = core
        self.socket = socket
        self.daemon = daemon
        self.port = daemon.boundPort != 0 ? daemon.boundPort : (socket.boundPort ?? configuration.port)
        if core.tracker.hasHeadDeadline {
            let tracker = core.tracker
            let refusals = core.refusals
            // Unstructured on purpose: the sweeper lives as long as the daemon, which is not a task's
            // scope; `stop` and `deinit` cancel it. It captures the tracker only, not the daemon.
            sweeper = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: .milliseconds(200))
                    refusals.record(.requestHeadDeadline, count: tracker.cutStalledHeads())
                }
            }
        } else {
            sweeper = nil
        }
    }

    deinit {
        sweeper?.cancel()
        // Without a graceful stop, release every thread blocked in a callback, then stop the daemon.
        daemon.quiesce()
        socket.shutdownListening()
        core.close()
        daemon.stop()
    }

    /// What the client limits have turned away since the server started, by limit.
    package var refusals: Refusals {
        core.refusals.snapshot
    }

    /// Whether the server is still serving (``stop(gracePeriod:)`` has not been called).
    public var isRunning: Bool {
        lifecycle.withLock { $0 == .running }
    }

    /// Stops the server gracefully.
    ///
    /// 1. The listening socket is shut at once: new connections are refused.
    /// 2. Requests in flight get up to `gracePeriod` to finish and send their responses, which carry
    ///    `Connection: close`. Streamed bodies (Server-Sent Events) are ended right away: their producers
    ///    are cancelled and what they already wrote is sent.
    /// 3. Connection threads still waiting on a handler are released and their connections dropped
    ///    (the handler's task is cancelled), and the daemon is stopped.
    ///
    /// Calling it again, even concurrently, waits for the first call to finish. If the calling task is
    /// cancelled, the grace period is cut short.
    ///
    /// - Parameter gracePeriod: How long requests in flight may take to finish.
    public func stop(gracePeriod: Duration = .seconds(10)) async {
        let isFirstCall = lifecycle.withLock { lifecycle in
            guard lifecycle == .running else { return false }
            lifecycle = .stopping
            return true
        }
        guard isFirstCall else {
            while lifecycle.withLock({ $0 != .stopped }) {
                try? await Task.sleep(for: .milliseconds(5))
            }
            return
        }
        core.beginDraining()
        daemon.quiesce()
        socket.shutdownListening()
        let deadline = ContinuousClock.now + gracePeriod
        while core.requestsInFlight > 0, ContinuousClock.now < deadline, !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(5))
        }
        core.close()
        daemon.stop()
        sweeper?.cancel()
        lifecycle.withLock { $0 = .stopped }
    }

    // MARK: - Daemon options

    private static func flags(ipv6: Bool) -> UInt32 {
        var flags =
            MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_THREAD_PER_CONNECTION.rawValue
            | MHD_USE_POLL.rawValue | MHD_USE_ITC.rawValue | MHD_USE_ERROR_LOG.rawValue
        if ipv6 {
            flags |= MHD_USE_IPv6.rawValue
        }
        return flags
    }

    private static func options(
        _ configuration: Configuration,
        listenSocket: Int32,
        context: DaemonCore
    ) -> [MHD_OptionItem] {
        let opaqueContext = Unmanaged.passUnretained(context).toOpaque()
        var options = [
            // The logger comes first so that messages from start-up reach it too.
            cmhd_option_external_logger(
                { context, format, arguments in
                    guard let context, let format, let arguments else { return }
                    var buffer = [CChar](repeating: 0, count: 1024)
                    _ = vsnprintf(&buffer, buffer.count, format, arguments)
                    let line = String(nulTerminated: buffer).trimmingSuffix { $0.isNewline }
                    guard !DaemonCore.isClientHangUp(line) else { return }
                    let core = Unmanaged<DaemonCore>.fromOpaque(context).takeUnretainedValue()
                    // libmicrohttpd's own refusals are answered once, by the server (LibraryErrorResponder).
                    _ = core.libraryErrors.answer(line)
                    core.record(line)
                },
                opaqueContext
            ),
            cmhd_option_uri_log(
                { context, uri, connection in
                    if let context, let connection {
                        Unmanaged<DaemonCore>.fromOpaque(context).takeUnretainedValue().libraryErrors.serving(
                            connection: Int(bitPattern: connection), socket: cmhd_connection_socket(connection))
                    }
                    let target = uri.map { String(cString: $0) } ?? "/"
                    return Unmanaged.passRetained(Exchange(target: target)).toOpaque()
                },
                opaqueContext
            ),
            cmhd_option_notify_completed(
                { context, connection, exchangeSlot, _ in
                    guard let context, let exchangeSlot, let raw = exchangeSlot.pointee else { return }
                    exchangeSlot.pointee = nil
                    let exchange = Unmanaged<Exchange>.fromOpaque(raw).takeRetainedValue()
                    let core = Unmanaged<DaemonCore>.fromOpaque(context).takeUnretainedValue()
                    core.releaseBodyBytes(exchange.takeReservedBytes())
                    if let address = exchange.takeStreamSlot() {
                        core.tracker.releaseStream(address: address)
                    }
                    if let connection {
                        core.tracker.requestFinished(Int(bitPattern: connection))
                    }
                    if exchange.isCountedInFlight {
                        core.requestCompleted()
                    }
                },
                opaqueContext
            ),
            cmhd_option_notify_connection(
                { context, connection, _, event in
                    guard let context, let connection else { return }
                    let core = Unmanaged<DaemonCore>.fromOpaque(context).takeUnretainedValue()
                    if event == .CONNECTION_NOTIFY_STARTED {
                        let socket = cmhd_connection_socket(connection)
                        let address = ClientAddressKey(
                            cmhd_connection_client_address(connection).map(SocketAddress.text(of:)) ?? "")
                        let opening = core.tracker.opened(Int(bitPattern: connection), socket: socket, address: address)
                        if opening == .refusedOverAddressLimit {
                            core.refusals.record(.connectionsPerAddress)
                        }
                        if opening == .admittedCuttingOldest {
                            core.refusals.record(.reservedConnections)
                            core.record(
                                "The server is nearly full: closed the connection that waited longest for its request.")
                        }
                    } else {
                        core.tracker.closed(Int(bitPattern: connection))
                        core.libraryErrors.closed(connection: Int(bitPattern: connection))
                    }
                },
                opaqueContext
            ),
            option(.LISTEN_SOCKET, Int(listenSocket)),
            option(.CONNECTION_MEMORY_LIMIT, configuration.connectionMemoryLimit),
            option(.CONNECTION_LIMIT, configuration.connectionLimit),
            option(.CONNECTION_TIMEOUT, configuration.connectionTimeoutSeconds),
        ]
        options.append(option(.END, 0))
        return options
    }

    /// An option that takes one integer argument.
    private static func option(_ option: MHD_OPTION, _ value: Int) -> MHD_OptionItem {
        MHD_OptionItem(option: option, value: value, ptr_value: nil)
    }
}

extension String {
    /// Decodes the UTF-8 text before the first NUL of a C buffer.
    init(nulTerminated buffer: [CChar]) {
        self.init(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// This string without the trailing characters that match `predicate`.
    fileprivate func trimmingSuffix(while predicate: (Character) -> Bool) -> String {
        var result = self
        while let last = result.last, predicate(last) {
            result.removeLast()
        }
        return result
    }
}

extension HTTPDaemon {
    /// Whether a daemon can listen on `host`: a numeric IPv4 or IPv6 address, or `localhost` (names are not
    /// looked up), so a command can refuse another value as a usage error before it starts anything.
    /// - Parameter host: the `--host` value.
    /// - Returns: whether ``HTTPServerError/invalidHost(_:)`` would not be thrown for it.
    package static func isListenableHost(_ host: String) -> Bool { ListeningSocket.isListenableHost(host) }
}
