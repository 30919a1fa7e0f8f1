import Foundation
package import RelayCore
import RelayCrawler

/// Reloading the settings files and running crawl passes on demand.
extension RelayService {
    /// Reads the settings files again (SIGHUP): the relay list of ``RelayConfiguration/relayListPath``,
    /// whose peers the next discovery asks. When the file cannot be read, the peers stay as they were and
    /// one line says why.
    ///
    /// - Returns: the peers the crawler now asks.
    @discardableResult
    package func reloadSettings() async -> [String] {
        let log = configuration.log
        do {
            let peers = try await crawler.replacePeerRelays(configuration.resolvedPeerRelays())
            log("relay reloaded peers=\(peers.isEmpty ? "none" : peers.joined(separator: " "))")
            return peers
        } catch {
            let peers = await crawler.peerRelayURLs
            log("relay reload failed, settings unchanged reason=\(error.localizedDescription)")
            return peers
        }
    }

    // MARK: - Crawling

    /// Runs one crawl pass now (after any pass in progress) and remembers its summary in the database for
    /// `orgsocial relay stats` (the crawler logs the pass).
    ///
    /// - Parameter forceDiscovery: Whether to read everyone's `#+FOLLOW:` lines and the peer relays in this
    ///   pass even if their daily and 3-hourly times have not come (`orgsocial relay scan` does).
    /// - Returns: What the pass did.
    @discardableResult
    package func scanOnce(forceDiscovery: Bool = false) async -> RelayScanReport {
        let previous = currentPass
        let crawler = crawler
        let pass = Task {
            _ = await previous?.value
            return await crawler.runPass(now: Date(), forceDiscovery: forceDiscovery)
        }
        currentPass = pass
        let report = await withTaskCancellationHandler {
            await pass.value
        } onCancel: {
            pass.cancel()
        }
        await record(report)
        return report
    }

    /// Keeps a pass's summary in the database (the crawler has logged it).
    private func record(_ report: RelayScanReport) async {
        let summary = RelayPassSummary(report: report, finishedAt: Date())
        do {
            try await store.setMetaValue(RelayPassSummary.metaKey, summary.storedText())
        } catch {
            configuration.log("relay pass not recorded reason=\(Self.sentence(error))")
        }
    }
}
