import HTTPCore
import Metrics
import Synchronization
import SystemSupport

/// Whole `GET` answers of the current data generation, keyed by what selects them (the request target,
/// the indent asked for, and for RSS the host), so a hot endpoint costs one lookup.
///
/// Every entry records the generation it was computed at and what it depends on
/// (``RelayCacheDependency``): a global answer holds for its generation only (storing an answer of a newer
/// generation drops the older global ones), while an answer keyed by a feed holds until a change recorded
/// for that feed, or one that changes everything (``RelayFeedVersions``), so a crawl pass that changes a
/// few feeds keeps every other feed's answers. Entries also age out after a lifetime, and when the bodies
/// would pass a byte limit the oldest entries make room for the new one (so a full cache keeps answering
/// its recent keys instead of starting over empty).
///
/// ``response(for:generation:compute:)`` computes each missing answer once per generation: requests that
/// miss while the same key and generation is being computed wait for that computation instead of running
/// their own, so a change does not make every open connection ask the store the same question at once.
final class RelayResponseCache: Sendable {
    /// A cached answer, without the per-request headers (CORS, validators).
    struct Entry: Sendable {
        /// The response as first computed.
        let response: HTTPResponse
        /// When it was computed.
        let storedAt: ContinuousClock.Instant
        /// Its place in the order of storing (see `State.order`).
        let serial: Int
        /// The generation it was computed at, and the epoch of that generation (``RelayFeedVersions``).
        let generation: Int, epoch: Int
        /// What it depends on.
        let dependency: RelayCacheDependency
    }

    private struct State: Sendable {
        /// The newest generation stored; global entries of older ones were dropped.
        var generation = Int.min
        var entries: [String: Entry] = [:]
        var bytes = 0
        /// The keys in the order they were stored, oldest first from `head`, each with the serial it was
        /// stored under: a key stored again is listed again, and its older listing no longer matches.
        var order: [(key: String, serial: Int)] = []
        /// The first listing of `order` not yet evicted.
        var head = 0
        /// The serial of the next entry.
        var nextSerial = 0

        /// Drops the oldest entries until `size` more bytes fit under `limit`.
        mutating func makeRoom(for size: Int, under limit: Int) {
            while bytes + size > limit, head < order.count {
                let (key, serial) = order[head]
                head += 1
                if let entry = entries[key], entry.serial == serial {
                    entries[key] = nil
                    bytes -= RelayResponseCache.size(of: entry.response, key: key)
                }
            }
            // Compacted once half the listings are gone, so `order` stays within twice the entries.
            if head > 64, head * 2 > order.count {
                order.removeFirst(head)
                head = 0
            }
        }
    }

    /// What an entry costs beyond its body and key (the response's headers and the bookkeeping), so that
    /// many small answers do not hold far more memory than the byte limit says.
    static let entryOverhead = 512

    /// The bytes an entry counts for: its body, its key and ``entryOverhead``.
    static func size(of response: HTTPResponse, key: String) -> Int {
        (response.body.bytes?.count ?? 0) + key.utf8.count + entryOverhead
    }

    /// A computation in flight, shared by every request for its key and generation.
    private struct InFlight: Sendable {
        /// The generation the answer is computed for.
        let generation: Int
        /// The computation; its value is the answer.
        let task: Task<HTTPResponse, Never>
    }

    private let state = ReadMostly(State())
    private let inFlight = Mutex<[String: InFlight]>([:])
    private let lifetime: Duration
    private let byteLimit: Int
    private let metrics: RelayServerMetrics?

    /// Makes an empty cache.
    ///
    /// - Parameters:
    ///   - lifetime: How long an entry is served.
    ///   - byteLimit: The most body bytes held at once.
    ///   - metrics: Counts hits and misses; `nil` counts nothing.
    init(lifetime: Duration, byteLimit: Int, metrics: RelayServerMetrics? = nil) {
        self.lifetime = lifetime
        self.byteLimit = byteLimit
        self.metrics = metrics
    }

    /// ``lookup(_:generation:versions:now:)``, counting a hit when it finds an answer (a miss is counted by
    /// ``response(for:generation:versions:dependency:compute:)``, which the caller goes on to).
    func hit(_ key: String, generation: Int, versions: RelayFeedVersions? = nil) -> HTTPResponse? {
        guard let cached = lookup(key, generation: generation, versions: versions) else { return nil }
        metrics?.cacheHits.increment()
        return cached
    }

    /// The answer stored under `key` if it still holds at `generation` and is young enough.
    ///
    /// - Parameters:
    ///   - key: the answer's key.
    ///   - generation: the current generation.
    ///   - versions: the feeds' last changes as read through `generation`; `nil` for a reader that knows
    ///     none (then a feed's answer holds only when computed at `generation`).
    ///   - now: the time of the lookup.
    /// - Returns: the answer, or `nil` when there is none that holds.
    func lookup(
        _ key: String, generation: Int, versions: RelayFeedVersions? = nil, now: ContinuousClock.Instant = .now
    ) -> HTTPResponse? {
        let versions = versions ?? RelayFeedVersions(startingAt: generation)
        return state.read { state in
            guard let entry = state.entries[key], now - entry.storedAt < lifetime,
                versions.holds(entry.dependency, computedAt: entry.generation, epoch: entry.epoch, current: generation)
            else { return nil }
            return entry.response
        }
    }

    /// Stores an answer computed at `generation` (of `epoch`) that depends on `dependency`.
    func store(
        _ response: HTTPResponse, under key: String, generation: Int, epoch: Int = 0,
        dependency: RelayCacheDependency = .global, now: ContinuousClock.Instant = .now
    ) {
        let size = Self.size(of: response, key: key)
        guard size <= byteLimit else { return }
        state.write { state in
            if generation > state.generation {
                // Global answers of older generations never hold again.
                state.generation = generation
                for (key, entry) in state.entries where entry.dependency == .global && entry.generation < generation {
                    state.entries[key] = nil
                    state.bytes -= Self.size(of: entry.response, key: key)
                }
            }
            if let old = state.entries.removeValue(forKey: key) {
                state.bytes -= Self.size(of: old.response, key: key)
            }
            state.makeRoom(for: size, under: byteLimit)
            let serial = state.nextSerial
            state.nextSerial += 1
            state.entries[key] = Entry(
                response: response, storedAt: now, serial: serial, generation: generation, epoch: epoch,
                dependency: dependency)
            state.order.append((key, serial))
            state.bytes += size
        }
    }

    /// The answer under `key` at `generation`: from the cache when one still holds, from a computation of
    /// the same key and generation already in flight, or computed now by `compute` (and stored, with
    /// `dependency`, unless it is a 5xx).
    ///
    /// The computation runs in a task of its own, so cancelling one waiter (its client went away) never
    /// cancels the answer the others wait for; the store's own budgets bound how long it runs.
    func response(
        for key: String, generation: Int, versions: RelayFeedVersions? = nil,
        dependency: RelayCacheDependency = .global, compute: @escaping @Sendable () async -> HTTPResponse
    ) async -> HTTPResponse {
        if let cached = hit(key, generation: generation, versions: versions) {
            return cached
        }
        let task = inFlight.withLock { running -> Task<HTTPResponse, Never> in
            if let current = running[key], current.generation == generation {
                metrics?.cacheHits.increment()
                return current.task
            }
            // Checked again under the lock: a computation that finished since the lookup above stored its
            // answer before leaving the table.
            if let cached = hit(key, generation: generation, versions: versions) {
                return Task { cached }
            }
            metrics?.cacheMisses.increment()
            let task = Task<HTTPResponse, Never> {
                let response = await compute()
                if response.status.code < 500 {
                    store(
                        response, under: key, generation: generation, epoch: versions?.epoch ?? 0,
                        dependency: dependency)
                }
                inFlight.withLock { running in
                    if running[key]?.generation == generation {
                        running[key] = nil
                    }
                }
                return response
            }
            running[key] = InFlight(generation: generation, task: task)
            return task
        }
        return await task.value
    }

    /// The number of computations in flight (for tests).
    var inFlightCount: Int {
        inFlight.withLock { $0.count }
    }

    /// The number of entries (for tests and metrics).
    var count: Int {
        state.read { $0.entries.count }
    }

    /// The bytes the entries count for (for tests and metrics).
    var byteCount: Int {
        state.read { $0.bytes }
    }
}
