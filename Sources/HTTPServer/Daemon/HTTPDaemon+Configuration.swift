extension HTTPDaemon {
    /// Where the server listens and the limits it enforces on each connection.
    ///
    /// The defaults suit a public relay behind a reverse proxy: 8 MiB bodies, 32 KiB of connection
    /// memory (so request headers up to roughly 16 KiB), 1024 connections, a 15-second idle timeout and
    /// keep-alive on.
    public struct Configuration: Sendable, Equatable {
        /// The numeric IPv4 or IPv6 address to bind, or `localhost` (127.0.0.1). `0.0.0.0` or `::`
        /// listens on every interface.
        public var host: String
        /// The TCP port; 0 lets the system pick a free port (read it back from ``HTTPDaemon/port``).
        public var port: Int
        /// The largest request body accepted, in bytes. A larger `Content-Length` is answered with 413
        /// before the body is read; a chunked body that grows past the limit is answered with 413 once
        /// the client finishes sending it (at most another `maximumBodyBytes` are read and discarded; a
        /// client that sends more is disconnected).
        public var maximumBodyBytes: Int = 8 * 1024 * 1024
        /// libmicrohttpd's memory pool per connection (`MHD_OPTION_CONNECTION_MEMORY_LIMIT`), in bytes.
        /// It holds the request line and headers plus the I/O buffers, so headers larger than about half
        /// of it are answered by libmicrohttpd 0.9.75 with 431 Request Header Fields Too Large and the
        /// connection is closed.
        public var connectionMemoryLimit: Int = 32 * 1024
        /// The most connections served at once (`MHD_OPTION_CONNECTION_LIMIT`); more are accepted and
        /// closed at once. Each connection has its own thread (see ``HTTPDaemon``).
        public var connectionLimit: Int = 1024
        /// The most connections one client (`ClientAddressKey`: an IPv4 address or an IPv6 /64) may
        /// hold; `nil` for no limit. Leave it `nil` behind a reverse proxy, where every client has its address.
        public var connectionsPerAddressLimit: Int?
        /// How long a connection may stay idle, with no bytes received or sent, before it is closed
        /// (`MHD_OPTION_CONNECTION_TIMEOUT`, whole seconds, rounded up). This guards against clients that
        /// send headers slowly. It does not limit handlers: a connection waiting for its handler or for
        /// the next event of a stream is not idle. `nil` disables the timeout.
        public var connectionTimeout: Duration? = .seconds(15)
        /// Whether a connection may carry several requests. When `false`, every response says
        /// `Connection: close`.
        public var keepAlive: Bool = true
        /// The listen queue length passed to `listen(2)`.
        public var listenBacklog: Int = 511
        /// Per-client limits against slow or greedy clients; none by default (see ``ClientLimits``).
        public var clientLimits = ClientLimits.none
        /// What a body over ``maximumBodyBytes`` is answered with (413); `nil` for a plain-text sentence naming
        /// that limit. A server whose handlers refuse smaller bodies with a message of their own (the node's
        /// uploads) gives that message here, so every 413 says the same and names the same limit.
        package var bodyTooLargeMessage: BodyTooLargeMessage?

        /// Creates a configuration with the default limits.
        ///
        /// - Parameters:
        ///   - host: The address to bind; `127.0.0.1` by default.
        ///   - port: The TCP port; 0 picks a free one.
        public init(host: String = "127.0.0.1", port: Int) {
            self.host = host
            self.port = port
        }

        /// The per-address connection limit in force: ``connectionsPerAddressLimit``, else the client
        /// limits' one.
        var effectiveConnectionsPerAddress: Int? {
            connectionsPerAddressLimit ?? clientLimits.connectionsPerAddress
        }

        /// `connectionTimeout` in whole seconds for libmicrohttpd, where 0 means no timeout.
        var connectionTimeoutSeconds: Int {
            guard let connectionTimeout else { return 0 }
            let (seconds, attoseconds) = connectionTimeout.components
            return max(1, Int(seconds) + (attoseconds > 0 ? 1 : 0))
        }
    }
}

extension HTTPDaemon.Configuration {
    /// The body of the 413 for a request body over the limit, with its content type.
    package struct BodyTooLargeMessage: Sendable, Equatable {
        /// The `Content-Type`.
        package var contentType: String
        /// The body.
        package var bytes: [UInt8]

        /// Creates a message.
        /// - Parameters:
        ///   - contentType: the `Content-Type`.
        ///   - bytes: the body.
        package init(contentType: String, bytes: [UInt8]) {
            self.contentType = contentType
            self.bytes = bytes
        }
    }
}
