internal import CMicroHTTPD

/// Owns one `struct MHD_Response`, destroyed in `deinit`.
///
/// A queued response is reference-counted by libmicrohttpd, so dropping this object right after
/// `queue(on:status:)` is the normal pattern. Used on one connection thread only.
///
/// See [Responses](https://www.gnu.org/software/libmicrohttpd/manual/html_node/microhttpd_002dresponse.html).
final class MHDResponse {
    private let handle: OpaquePointer

    private init?(_ handle: OpaquePointer?) {
        guard let handle else { return nil }
        self.handle = handle
    }

    deinit {
        MHD_destroy_response(handle)
    }

    /// A response whose body is a copy of `bytes`; libmicrohttpd sends `Content-Length` for it.
    static func copying(_ bytes: [UInt8]) -> MHDResponse? {
        bytes.withUnsafeBytes { buffer in
            MHDResponse(
                MHD_create_response_from_buffer(
                    buffer.count,
                    UnsafeMutableRawPointer(mutating: buffer.baseAddress),
                    .RESPMEM_MUST_COPY
                )
            )
        }
    }

    /// A response announcing a body of `length` bytes that is never read: for `HEAD`, where
    /// libmicrohttpd sends the headers only.
    static func announcing(length: UInt64) -> MHDResponse? {
        MHDResponse(
            MHD_create_response_from_callback(
                length, 1,
                { _, _, _, _ in MHD_CONTENT_READER_END_WITH_ERROR },
                nil, nil
            )
        )
    }

    /// A response of unknown length whose body is pulled from `registration.channel`, sent with chunked
    /// transfer coding. libmicrohttpd holds the registration until it calls the free callback, which
    /// closes the channel (cancelling the producer) and unregisters it.
    static func streaming(_ registration: StreamRegistration) -> MHDResponse? {
        let context = Unmanaged.passRetained(registration).toOpaque()
        let response = MHDResponse(
            MHD_create_response_from_callback(
                UInt64.max,  // MHD_SIZE_UNKNOWN, a macro Swift does not import.
                32 * 1024,
                { context, _, buffer, capacity in
                    guard let context, let buffer, capacity > 0 else { return MHD_CONTENT_READER_END_WITH_ERROR }
                    let registration = Unmanaged<StreamRegistration>.fromOpaque(context).takeUnretainedValue()
                    switch registration.channel.read(
                        into: UnsafeMutableRawBufferPointer(start: buffer, count: capacity))
                    {
                    case .bytes(let count): return count
                    case .endOfStream: return MHD_CONTENT_READER_END_OF_STREAM
                    case .error: return MHD_CONTENT_READER_END_WITH_ERROR
                    case .producerFailed:
                        // libmicrohttpd's own line for this is the one it writes when a client hangs up, which
                        // is not logged (``DaemonCore/isClientHangUp(_:)``): say it here.
                        registration.core.record("A streamed response was cut short: its producer failed.")
                        return MHD_CONTENT_READER_END_WITH_ERROR
                    }
                },
                context,
                { context in
                    guard let context else { return }
                    let registration = Unmanaged<StreamRegistration>.fromOpaque(context).takeRetainedValue()
                    registration.channel.close(.clientGone)
                    registration.core.unregister(registration.channel)
                }
            )
        )
        if response == nil {
            // libmicrohttpd never took the context, so the free callback will not run.
            Unmanaged<StreamRegistration>.fromOpaque(context).release()
        }
        return response
    }

    /// Adds a header field. Returns `false` if libmicrohttpd rejects it (a control character or a
    /// forbidden value).
    func addHeader(_ name: String, _ value: String) -> Bool {
        MHD_add_response_header(handle, name, value) == .YES
    }

    /// Queues the response on `connection` with `status`.
    func queue(on connection: OpaquePointer, status: Int) -> MHD_Result {
        MHD_queue_response(connection, UInt32(status), handle)
    }
}

@available(*, unavailable, message: "An MHD_Response handle is used on one connection thread only.")
extension MHDResponse: Sendable {}

/// What a streamed response's callbacks need: the channel to read from and the core to unregister from.
final class StreamRegistration: Sendable {
    let channel: StreamChannel
    let core: DaemonCore

    init(channel: StreamChannel, core: DaemonCore) {
        self.channel = channel
        self.core = core
    }
}
