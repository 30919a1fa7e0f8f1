import Foundation
import OrgSocialClient
import RelayCrawler

/// Every request a bridge sends: through the relay's SSRF guard (the first URL and every redirect
/// target), with one 10 s timeout, a 5 MiB cap and the bridge's `User-Agent` (`relay-api.md` §2.20).
struct BridgeFetcher: Sendable {
    /// The reads, with their limits.
    let fetcher: FeedFetcher
    /// The SSRF guard.
    let addressGuard: AddressGuard

    /// A `200` body or a `304`, for `url`.
    /// - Parameters:
    ///   - url: the URL.
    ///   - accept: the `Accept` header.
    ///   - validators: `If-None-Match`/`If-Modified-Since`, for a conditional read.
    /// - Returns: the result.
    /// - Throws: ``RelayBridgeError``: `notAllowed`, `httpStatus` or `fetchFailed`.
    func get(_ url: URL, accept: String, validators: FeedValidators? = nil) async throws(RelayBridgeError)
        -> ConditionalFetchResult
    {
        do {
            return try await fetcher.fetch(
                url, validators: validators, checkHop: { [addressGuard] in try await addressGuard.check($0) },
                accept: accept)
        } catch RelayCrawlerError.refused(let refused, _, _, _) {
            throw .notAllowed(url: refused)
        } catch OrgSocialClientError.fetchFailed(let failed, let status) {
            throw .httpStatus(url: failed, status: status)
        } catch OrgSocialClientError.feedTooLarge(let large, let limit) {
            throw .fetchFailed(url: large, reason: "the answer is larger than \(limit / 1_048_576) MiB")
        } catch OrgSocialClientError.timedOut(let slow, let after) {
            throw .fetchFailed(url: slow, reason: "no complete answer within \(after.components.seconds) s")
        } catch {
            let description = (error as? any LocalizedError)?.errorDescription ?? String(describing: error)
            throw .fetchFailed(url: url.absoluteString, reason: description)
        }
    }

    /// The JSON object at `url` (ActivityPub and WebFinger documents).
    /// - Throws: ``RelayBridgeError``; `unexpectedActivityPub` when the body is not a JSON object.
    func json(_ url: URL, accept: String) async throws(RelayBridgeError) -> [String: Any] {
        let result = try await get(url, accept: accept)
        guard case .fresh(let body) = result.outcome,
            let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]
        else {
            throw .unexpectedActivityPub(url: url.absoluteString, reason: "the answer is not a JSON object")
        }
        return object
    }
}
