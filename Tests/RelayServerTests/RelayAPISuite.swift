import Testing

/// The relay API's tests. They run one at a time: each starts its own server, and the load test opens a
/// thousand connections, which would starve the others on a small machine.
@Suite(.serialized)
enum RelayAPISuite {}
