import HTTPCore
import SystemSupport

/// Whole `GET` answers of the current data generation, keyed by what selects them (the request target,
/// the indent asked for, and for RSS the host), so a hot endpoint costs one lookup.
///
/// Every entry belongs to one generation: storing an answer of another generation drops all the others
/// (lookups ask for the current generation only, so an answer stored late for an old one is never
/// served). Entries also age
/// out after a lifetime, and the cache starts over empty when its bodies would pass a byte limit.
final class RelayResponseCache: Sendable {
    /// A cached answer, without the per-request headers (CORS, validators).
    struct Entry: Sendable {
        /// The response as first computed.
        let response: HTTPResponse
        /// When it was computed.
        let storedAt: ContinuousClock.Instant
    }

    private struct State: Sendable {
        var generation = Int.min
        var entries: [String: Entry] = [:]
        var bytes = 0
    }

    private let state = ReadMostly(State())
    private let lifetime: Duration
    private let byteLimit: Int

    /// Makes an empty cache.
    ///
    /// - Parameters:
    ///   - lifetime: How long an entry is served.
    ///   - byteLimit: The most body bytes held at once.
    init(lifetime: Duration, byteLimit: Int) {
        self.lifetime = lifetime
        self.byteLimit = byteLimit
    }

    /// The answer stored under `key` for `generation`, if it is still young enough.
    func lookup(_ key: String, generation: Int, now: ContinuousClock.Instant = .now) -> HTTPResponse? {
        state.read { state in
            guard state.generation == generation, let entry = state.entries[key], now - entry.storedAt < lifetime
            else { return nil }
            return entry.response
        }
    }

    /// Stores an answer computed for `generation`.
    func store(_ response: HTTPResponse, under key: String, generation: Int, now: ContinuousClock.Instant = .now) {
        let size = (response.body.bytes?.count ?? 0) + key.utf8.count
        guard size <= byteLimit else { return }
        state.write { state in
            if generation != state.generation || state.bytes + size > byteLimit {
                state = State(generation: generation)
            }
            if let old = state.entries[key] {
                state.bytes -= (old.response.body.bytes?.count ?? 0) + key.utf8.count
            }
            state.entries[key] = Entry(response: response, storedAt: now)
            state.bytes += size
        }
    }

    /// The number of entries (for tests and metrics).
    var count: Int {
        state.read { $0.entries.count }
    }
}
