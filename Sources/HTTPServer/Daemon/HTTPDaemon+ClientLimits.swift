extension HTTPDaemon {
    /// Limits that keep a few clients from taking the server from everybody else: slow request heads
    /// (slowloris), many connections or event streams from one address, and request bodies held in
    /// memory by many connections at once.
    ///
    /// ``HTTPDaemon/Configuration/clientLimits`` is ``none`` by default (a library server on a trusted
    /// network); `orgsocial serve` and `orgsocial relay serve` start with ``init()``, the values for a
    /// server reachable by anyone.
    ///
    /// Behind a reverse proxy every client has the proxy's address, so the per-address limits then
    /// count all clients together: turn them off (`nil`) there and limit per client in the proxy.
    public struct ClientLimits: Sendable, Equatable {
        /// The most connections one client (`ClientAddressKey`: an IPv4 address or an IPv6 /64) may
        /// hold at once; more are closed as soon as they are accepted. `nil`
        /// for no limit. ``HTTPDaemon/Configuration/connectionsPerAddressLimit``, when set, wins.
        public var connectionsPerAddress: Int? = 32
        /// How long a client has to send a complete request head (request line and header fields),
        /// counted from the moment the connection opened or its previous response was sent. Unlike
        /// ``HTTPDaemon/Configuration/connectionTimeout`` it is not restarted by each byte, so a client
        /// that sends a header line every few seconds is still cut off. `nil` for no deadline.
        public var requestHeadDeadline: Duration? = .seconds(10)
        /// Connection slots kept for clients that send their request at once. When the open connections
        /// reach ``HTTPDaemon/Configuration/connectionLimit`` minus this, each new connection closes
        /// the connection that has waited longest for its request head. 0 turns this off.
        public var reservedConnections = 64
        /// The most streamed responses (Server-Sent Events) open at once; more are answered with 503
        /// and `Retry-After`. `nil` for no limit.
        public var maximumStreams: Int? = 256
        /// The most streamed responses one client (`ClientAddressKey`) may hold at once; more are answered with
        /// 503 and `Retry-After`. `nil` for no limit.
        public var maximumStreamsPerAddress: Int? = 4
        /// The most request-body bytes buffered in memory across all connections at once. A request
        /// whose body would pass it is answered with 503 and `Retry-After` (before its body is read,
        /// when it declares a `Content-Length`). `nil` for no limit.
        public var maximumBufferedBodyBytes: Int? = 64 * 1024 * 1024

        /// The limits for a server reachable by anyone: 32 connections per address, a 10-second
        /// request-head deadline, 64 reserved connections, 256 streams (4 per address) and 64 MiB of
        /// buffered bodies.
        public init() {}

        /// No limits beyond those of ``HTTPDaemon/Configuration``.
        public static let none = ClientLimits(
            connectionsPerAddress: nil, requestHeadDeadline: nil, reservedConnections: 0, maximumStreams: nil,
            maximumStreamsPerAddress: nil, maximumBufferedBodyBytes: nil)

        /// Creates limits with every value given.
        ///
        /// - Parameters:
        ///   - connectionsPerAddress: The most connections per client address, or `nil`.
        ///   - requestHeadDeadline: The time allowed for a request head, or `nil`.
        ///   - reservedConnections: The connection slots kept free by closing stalled connections.
        ///   - maximumStreams: The most streamed responses, or `nil`.
        ///   - maximumStreamsPerAddress: The most streamed responses per client address, or `nil`.
        ///   - maximumBufferedBodyBytes: The most body bytes buffered at once, or `nil`.
        public init(
            connectionsPerAddress: Int?, requestHeadDeadline: Duration?, reservedConnections: Int,
            maximumStreams: Int?, maximumStreamsPerAddress: Int?, maximumBufferedBodyBytes: Int?
        ) {
            self.connectionsPerAddress = connectionsPerAddress
            self.requestHeadDeadline = requestHeadDeadline
            self.reservedConnections = reservedConnections
            self.maximumStreams = maximumStreams
            self.maximumStreamsPerAddress = maximumStreamsPerAddress
            self.maximumBufferedBodyBytes = maximumBufferedBodyBytes
        }
    }
}
