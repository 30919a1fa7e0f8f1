import Foundation
import OrgSocial
import OrgSocialClient
import RelayCore

extension FeedCrawler {
    // MARK: - Peer relays

    /// Asks every peer relay for its feed list (`GET <peer>/feeds`, redirects followed, `relay-api.md`
    /// §4.3) and adds each unknown, non-bridge http(s) URL that passes the registration check.
    /// - Parameter peers: the peer base URLs (``Configuration/peerRelayURLs``).
    /// - Returns: how many feeds were added.
    func discoverFromPeers(_ peers: [String]) async -> Int {
        var candidates: [String] = []
        var seen: Set<String> = []
        for peer in peers {
            do {
                for url in try await peerFeedList(peer) where seen.insert(url).inserted {
                    candidates.append(url)
                }
            } catch {
                configuration.log("relay peer failed url=\(peer)/feeds reason=\(RelayFeedValidator.describe(error))")
            }
        }
        let added = await addValidFeeds(candidates)
        if !peers.isEmpty {
            configuration.log("relay peers checked=\(peers.count) listed=\(candidates.count) added=\(added.count)")
        }
        return added.count
    }

    /// One peer's `/feeds` list: the http(s), non-bridge strings of `data` in a `Success` envelope.
    private func peerFeedList(_ peer: String) async throws -> [String] {
        let address = peer + "/feeds"
        guard let url = RelayFeedValidator.httpURL(address) else {
            throw RelayCrawlerError.unsupportedURL(url: address)
        }
        let result = try await validator.liveFetcher.fetch(
            url, validators: nil, checkHop: { [addressGuard] in try await addressGuard.check($0) })
        guard case .fresh(let body) = result.outcome else {
            throw RelayCrawlerError.unexpectedPeerAnswer(url: address, reason: "no body")
        }
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
            object["type"] as? String == "Success", let data = object["data"] as? [Any]
        else {
            throw RelayCrawlerError.unexpectedPeerAnswer(
                url: address, reason: "it is not {\"type\":\"Success\",\"data\":[…]}")
        }
        return data.compactMap { ($0 as? String).map(FeedURL.normalized) }.filter { url in
            RelayFeedText.isHTTPURLString(url) && !RelayFeedText.isBridgeURL(url)
        }
    }

    // MARK: - Follows

    /// Follows discovery (`relay-api.md` §4.2) over the feeds this pass read: every followed http(s),
    /// non-bridge URL that is unknown is validated and added; follow rows are recorded for the known and
    /// the valid ones (an invalid unknown URL gets none).
    /// - Parameters:
    ///   - followers: each feed read successfully this pass, with its follows.
    ///   - known: the crawl list's URLs.
    ///   - now: the pass's time.
    /// - Returns: the URLs added to the crawl list.
    func discoverFromFollows(_ followers: [(String, [RelayFollow])], known: Set<String>, now: Date) async -> [String] {
        var candidates: [String] = []
        var seen: Set<String> = []
        for (_, follows) in followers {
            for follow in follows where !known.contains(follow.url) && !RelayFeedText.isBridgeURL(follow.url) {
                if seen.insert(follow.url).inserted { candidates.append(follow.url) }
            }
        }
        let added = await addValidFeeds(candidates)
        var accepted = known.union(added)
        for url in candidates where !accepted.contains(url) {
            if (try? await store.containsFeed(url)) == true { accepted.insert(url) }
        }
        for (follower, follows) in followers {
            let kept = follows.filter { accepted.contains($0.url) }
            do {
                try await store.recordFollows(follower: follower, follows: kept, now: now)
            } catch {
                configuration.log(
                    "relay follows not saved follower=\(follower) reason=\(RelayFeedValidator.describe(error))")
            }
        }
        configuration.log(
            "relay follows feeds=\(followers.count) unknown=\(candidates.count) added=\(added.count)")
        return added
    }

    // MARK: - Adding

    /// Validates the URLs that are not in the crawl list yet (concurrently) and adds the valid ones.
    /// - Parameter urls: candidate URLs, without duplicates.
    /// - Returns: the URLs added, in candidate order.
    private func addValidFeeds(_ urls: [String]) async -> [String] {
        var unknown: [String] = []
        for url in urls {
            // New feeds must be registrable: canonical already, and without a query (see `FeedURL`).
            if let problem = FeedURL.problem(registering: url) {
                configuration.log("relay discovery skipped url=\(url) reason=\(problem)")
                continue
            }
            do {
                if try await !store.containsFeed(url) { unknown.append(url) }
            } catch {
                configuration.log("relay discovery failed url=\(url) reason=\(RelayFeedValidator.describe(error))")
            }
        }
        let validator = self.validator
        let width = max(1, configuration.maxConcurrentDownloads)
        let valid = await withTaskGroup(of: (String, String?).self) { group in
            var pending = unknown.makeIterator()
            var results: [String: String?] = [:]
            for _ in 0..<width {
                guard let url = pending.next() else { break }
                group.addTask { (url, await validator.validationFailure(for: url)) }
            }
            while let (url, failure) = await group.next() {
                results[url] = failure
                if let next = pending.next() {
                    group.addTask { (next, await validator.validationFailure(for: next)) }
                }
            }
            return results
        }
        var added: [String] = []
        for url in unknown {
            if let failure = valid[url] ?? nil {
                configuration.log("relay discovery skipped url=\(url) reason=\(failure)")
                continue
            }
            do {
                if try await store.addFeed(url, now: Date()) {
                    added.append(url)
                    configuration.log("relay discovery added url=\(url)")
                }
            } catch {
                configuration.log("relay discovery failed url=\(url) reason=\(RelayFeedValidator.describe(error))")
            }
        }
        return added
    }
}
