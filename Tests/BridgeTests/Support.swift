import Bridge
import Foundation
import TootClient

/// A server profile as discovery would store it for a Mastodon 4.5 server at `instance`.
func sampleProfile(_ instance: String = "https://mastodon.example", maxCharacters: Int = 500) throws -> ServerProfile {
    let json = """
        {"instanceURL": "\(instance)", "software": "mastodon", "version": "4.5.0", "apiVersion": 6,
         "nodeInfoSchema": "2.0", "instanceDocument": "v2",
         "limits": {"maxCharacters": \(maxCharacters), "charactersPerURL": 23, "maxMediaAttachments": 4,
                    "pollMaxOptions": 4, "pollMaxCharactersPerOption": 50, "pollMinExpiration": 300,
                    "pollMaxExpiration": 2629746}}
        """
    return try JSONDecoder().decode(ServerProfile.self, from: Data(json.utf8))
}

/// An account named `name` on a sample Mastodon server, added at a whole second.
func sampleAccount(_ name: String = "ana@mastodon.example") throws -> BridgeAccount {
    BridgeAccount(
        name: name, instanceURL: try require(URL(string: "https://mastodon.example")), server: try sampleProfile(),
        addedAt: Date(timeIntervalSince1970: 1_780_000_000))
}

/// A mapping of `postID` to statuses `statusIDs` (in order) on `account`.
func sampleMapping(
    _ postID: String, statuses statusIDs: [String], account: String = "ana@mastodon.example",
    feed: String = "https://ana.example/social.org", origin: PostOrigin = .feed
) -> PostMapping {
    PostMapping(
        feed: feed, account: account, postID: postID,
        parts: statusIDs.map { StatusPart(statusID: $0, url: URL(string: "https://mastodon.example/@ana/\($0)")) },
        contentHash: "hash-\(postID)", origin: origin, mediaIDs: ["m-\(postID)"], pollID: nil)
}

/// The `#require` of these helpers, which cannot use the macro outside a test.
func require<T>(_ value: T?) throws -> T {
    guard let value else { throw MissingValue() }
    return value
}

/// A value a helper needed was missing.
struct MissingValue: Error {}
