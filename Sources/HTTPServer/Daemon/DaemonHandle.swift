internal import CMicroHTTPD
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Owns one running `struct MHD_Daemon`, stopped in `deinit` if `stop()` was not called.
///
/// See [Starting and stopping the server](https://www.gnu.org/software/libmicrohttpd/manual/html_node/microhttpd_002dinit.html).
final class DaemonHandle: Sendable {
    /// The daemon pointer. `@unchecked Sendable` is sound because the pointer is only read under
    /// `state`'s lock, and the calls made with it (`MHD_quiesce_daemon`, `MHD_get_daemon_info`,
    /// `MHD_stop_daemon`) are the ones libmicrohttpd allows from any thread.
    private struct Pointer: @unchecked Sendable {
        let raw: OpaquePointer
    }

    private struct State: Sendable {
        var daemon: Pointer?
        /// The listen socket `MHD_quiesce_daemon` handed back; ours to close after `MHD_stop_daemon`.
        var quiescedSocket: Int32?
    }

    private let state: Mutex<State>
    /// The port the daemon listens on (`MHD_DAEMON_INFO_BIND_PORT`), or 0 if it could not tell.
    let boundPort: Int

    /// Starts a daemon. Returns `nil` if libmicrohttpd refuses.
    init?(flags: UInt32, context: DaemonCore, options: [MHD_OptionItem]) {
        var options = options
        let daemon = options.withUnsafeMutableBufferPointer { options in
            cmhd_start_daemon(
                flags, 0,
                { context, connection, url, method, version, uploadData, uploadDataSize, exchangeSlot in
                    guard let context, let connection, let uploadDataSize, let exchangeSlot else { return .NO }
                    return Unmanaged<DaemonCore>.fromOpaque(context).takeUnretainedValue().handleAccess(
                        connection: connection,
                        url: url,
                        method: method,
                        version: version,
                        uploadData: uploadData,
                        uploadDataSize: uploadDataSize,
                        exchangeSlot: exchangeSlot
                    )
                },
                Unmanaged.passUnretained(context).toOpaque(),
                options.baseAddress
            )
        }
        guard let daemon else { return nil }
        boundPort = Int(cmhd_daemon_bound_port(daemon))
        state = Mutex(State(daemon: Pointer(raw: daemon)))
    }

    deinit {
        stop()
    }

    /// Stops accepting connections (`MHD_quiesce_daemon`); connections already open keep being served.
    func quiesce() {
        state.withLock { state in
            guard let daemon = state.daemon, state.quiescedSocket == nil else { return }
            let socket = MHD_quiesce_daemon(daemon.raw)
            if socket >= 0 {
                state.quiescedSocket = socket
            }
        }
    }

    /// Stops the daemon (`MHD_stop_daemon`): closes every connection and joins every thread. Blocks until
    /// they have exited, so release any thread blocked in a callback first. Idempotent.
    func stop() {
        let (daemon, socket) = state.withLock { state in
            defer { state = State() }
            return (state.daemon, state.quiescedSocket)
        }
        if let daemon {
            MHD_stop_daemon(daemon.raw)
        }
        if let socket {
            close(socket)
        }
    }
}
