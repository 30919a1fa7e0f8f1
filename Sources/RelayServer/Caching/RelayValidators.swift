import Crypto
import Foundation
import HTTPCore
import RelayCore
import SystemSupport

/// The caching validators of one data generation: the `ETag` and `Last-Modified` every 2xx answer
/// carries (deliberate difference 1: they change only when served data changed).
struct RelayValidators: Sendable, Equatable {
    /// The data generation they describe.
    let generation: Int
    /// `"` + 8 hex digits of the SHA-256 of the generation and its time + `"`.
    let entityTag: String
    /// The time of the generation in whole seconds since 1970.
    let modifiedSeconds: Int
    /// `modifiedSeconds` as an HTTP date.
    let lastModified: String
    /// The last change of each feed's answers, for the response cache.
    let versions: RelayFeedVersions

    /// Derives the validators of a change stamp.
    ///
    /// The time is hashed with the generation so that a database rebuilt from scratch, whose counter
    /// starts again, does not repeat old tags.
    /// - Parameters:
    ///   - stamp: the store's generation and its time.
    ///   - versions: the feeds' last changes as read through `stamp` (by default, a process that starts
    ///     at it).
    init(stamp: RelayChangeStamp, versions: RelayFeedVersions? = nil) {
        self.versions = versions ?? RelayFeedVersions(startingAt: stamp.generation)
        generation = stamp.generation
        modifiedSeconds = Int(stamp.changedAt.timeIntervalSince1970.rounded(.down))
        let seed = "\(stamp.generation)@\(stamp.changedAt.timeIntervalSince1970)"
        entityTag = "\"" + String(SHA256.hexHash(Array(seed.utf8)).prefix(8)) + "\""
        lastModified = HTTPDate.format(modifiedSeconds)
    }

    /// Adds `ETag` and `Last-Modified` to a response.
    func apply(to response: inout HTTPResponse) {
        response.headers["ETag"] = entityTag
        response.headers["Last-Modified"] = lastModified
    }

    /// Whether the request's `If-None-Match` (or, without it, `If-Modified-Since`) says the client
    /// already has this generation (RFC 9110, section 13.1.2: `If-None-Match` compares weakly and wins).
    func isFresh(for request: HTTPRequest) -> Bool {
        let tags = request.headers.values(for: "If-None-Match")
        if !tags.isEmpty {
            for list in tags {
                for candidate in list.split(separator: ",") {
                    var tag = candidate.trimmed
                    if tag == "*" {
                        return true
                    }
                    if tag.hasPrefix("W/") {
                        tag.removeFirst(2)
                    }
                    if tag == entityTag {
                        return true
                    }
                }
            }
            return false
        }
        if let since = request.headers["If-Modified-Since"].flatMap(HTTPDate.parse) {
            return modifiedSeconds <= since
        }
        return false
    }

    /// The `304` for a request whose validators match.
    func notModified() -> HTTPResponse {
        var response = HTTPResponse(status: .notModified)
        apply(to: &response)
        return response
    }
}

/// The last read of the data generation, shared by every connection thread so that cached answers need
/// no call into the store's actors. The state lives in a ``ReadMostly`` lock.
///
/// A reading is trusted while the store's ``RelayCore/RelayReadModel/dataVersion()`` (SQLite's
/// `PRAGMA data_version`, asked on every request) is the one it was taken at, so a commit by any
/// connection or process shows at the very next request. A store that cannot tell its data version is
/// trusted for `maximumAge` instead.
final class RelayChangeTracker: Sendable {
    private struct Reading: Sendable {
        let validators: RelayValidators
        let dataVersion: Int?
        let readAt: ContinuousClock.Instant
    }

    private let reading = ReadMostly<Reading?>(nil)
    private let maximumAge: Duration

    /// Makes a tracker that trusts a reading without a data version for `maximumAge`.
    init(maximumAge: Duration) {
        self.maximumAge = maximumAge
    }

    /// The validators of the last reading if nothing was committed since (or, when the store cannot
    /// tell, if it is recent enough), without waiting.
    func recentValidators(from readModel: any RelayReadModel, now: ContinuousClock.Instant = .now)
        -> RelayValidators?
    {
        guard let current = reading.read({ $0 }) else { return nil }
        if let version = current.dataVersion {
            return readModel.dataVersion() == version ? current.validators : nil
        }
        return now - current.readAt < maximumAge ? current.validators : nil
    }

    /// Reads the change stamp from the store, and the feeds changed since the last reading, and remembers
    /// them with the data version they hold for.
    ///
    /// - Returns: The new validators, or the last known ones (or `nil`) when the store fails; the
    ///   failure goes to `log`.
    func refresh(from readModel: any RelayReadModel, log: @Sendable (String) -> Void) async -> RelayValidators? {
        let started = ContinuousClock.now
        // The version first: a commit between the two reads then makes the next request read again,
        // instead of pairing the new version with the old stamp.
        let version = readModel.dataVersion()
        do {
            let stamp = try await readModel.changeStamp()
            let known = reading.read { $0?.validators.versions }
            let versions: RelayFeedVersions
            if let known, stamp.generation < known.generation {
                versions = known.restarting(at: stamp.generation)
            } else if let known, stamp.generation > known.generation {
                versions = known.adding(
                    try await readModel.feedChanges(after: known.generation, current: stamp.generation))
            } else {
                versions = known ?? RelayFeedVersions(startingAt: stamp.generation)
            }
            let validators = RelayValidators(stamp: stamp, versions: versions)
            reading.write { current in
                // A slower read that started earlier must not replace a newer one.
                if current.map({ $0.readAt <= started }) ?? true {
                    current = Reading(validators: validators, dataVersion: version, readAt: started)
                }
            }
            return validators
        } catch {
            log("relay-http error=change-stamp reason=\"\(error)\"")
            return reading.read { $0?.validators }
        }
    }
}
