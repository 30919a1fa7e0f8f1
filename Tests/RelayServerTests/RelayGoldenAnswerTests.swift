import Foundation
import RelayTestFixtures
import TestSupport
import Testing

extension RelayAPISuite {
    /// Every JSON endpoint's whole answer (status, headers but the validators, body bytes) over the fixture
    /// feeds, compared with the answers recorded in `Fixtures/golden-answers.txt` before the read model
    /// returned typed rows: the relay answers byte-identically, on every storage engine.
    @Suite struct RelayGoldenAnswerTests {
        typealias H = RelayServerHarness

        /// The requests: every read endpoint with good, missing and bad parameters, for every fixture feed
        /// and post.
        static func targets(posts: [String]) -> [(method: String, target: String)] {
            func enc(_ text: String) -> String {
                text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
            }
            let dave = RelayFixtures.daveURL(base: H.base)
            var targets: [String] = [
                "/", "/feeds/", "/groups/", "/groups/emacs/", "/groups/org-social/", "/groups/nope/", "/polls/",
                "/stats/", "/mentions/", "/mentions/?feed=%20", "/notifications/", "/notifications/?feed=x&type=bogus",
                "/reactions/", "/replies-to/", "/profile/", "/boosts/", "/boosts/?post=nohash", "/interactions/?post=",
                "/replies/?post=a%23b", "/polls/votes/", "/polls/votes/?post=a%23b", "/polls/?feed=nobody",
                "/polls/?voter=nobody", "/search/", "/search/?q=e", "/search/?q=e&perPage=2&page=2",
                "/search/?q=e&perPage=100", "/search/?tag=emacs", "/search/?tag=EMACS&page=99", "/search/?q=zzz&page=3",
                "/search/?q=e&page=x", "/search/?q=e&perPage=0", "/search/?q=e&page=0", "/search/?q=\u{C9}macs",
                "/search/?q=" + String(repeating: "a", count: 200), "/mentions/?feed=x&format=json",
                "/mentions/?feed=x&format=api", "/feed-content/", "/feed-content/?feed=http%3A%2F%2Fa.example%2Fs.org",
                "/mentions", "/nope/", "/stats/?format=json",
            ]
            for feed in [H.alice, H.bob, H.carol, dave] {
                let e = enc(feed)
                targets += [
                    "/mentions/?feed=\(e)", "/notifications/?feed=\(e)", "/notifications/?feed=\(e)&type=REPLY",
                    "/notifications/?feed=\(e)&type=reaction", "/notifications/?feed=\(e)&type=boost",
                    "/notifications/?feed=\(e)&type=mention", "/reactions/?feed=\(e)", "/replies-to/?feed=\(e)",
                    "/profile/?feed=\(e)", "/polls/?feed=\(e)", "/polls/?voter=\(e)",
                ]
            }
            for post in posts {
                let e = enc(post)
                targets += [
                    "/boosts/?post=\(e)", "/interactions/?post=\(e)", "/replies/?post=\(e)", "/polls/votes/?post=\(e)",
                ]
            }
            return targets.map { ("GET", $0) } + [("POST", "/feeds/"), ("DELETE", "/mentions/")]
        }

        /// One answer as recorded: the request, the status, the headers but `ETag`, `Last-Modified` and
        /// `Date`, and the body, with `generated_at` (the request time) masked.
        static func record(_ method: String, _ target: String, _ response: RawResponse) -> String {
            let headers = response.headers.filter { !["etag", "last-modified", "date"].contains($0.0.lowercased()) }
                .map { "\($0.0): \($0.1)" }.joined(separator: "\n")
            let body = response.text.replacingOccurrences(
                of: #""generated_at":"[^"]*""#, with: #""generated_at":"…""#, options: .regularExpression)
            return "=== \(method) \(target)\n\(response.status)\n\(headers)\n\(body)\n"
        }

        @Test(arguments: RelayStoreEngine.tested)
        func everyReadEndpointAnswersAsRecorded(engine: RelayStoreEngine) async throws {
            let relay = try await H(engine: engine)
            let all = try await relay.send("GET", "/search/?q=%20&perPage=50")
            let data = try #require(all.json?["data"] as? [String])
            let posts = data + ["\(H.alice)#missing"]
            var answers = ""
            for (method, target) in Self.targets(posts: posts) {
                let response = try await relay.send(method, target)
                answers += Self.record(method, target, response)
            }
            await relay.stop()
            let url = try #require(
                Bundle.module.url(forResource: "golden-answers", withExtension: "txt", subdirectory: "Fixtures"))
            let expected = try String(contentsOf: url, encoding: .utf8)
            // The first block is the file's preamble (a comment line), the actual one is empty.
            let expectedBlocks = expected.components(separatedBy: "=== ").dropFirst()
            let actualBlocks = answers.components(separatedBy: "=== ").dropFirst()
            #expect(actualBlocks.count == expectedBlocks.count)
            for (actual, wanted) in zip(actualBlocks, expectedBlocks) where actual != wanted {
                Issue.record("answer differs:\n\(actual)\nrecorded:\n\(wanted)")
            }
        }

        @Test(.enabled(if: RelayStoreEngine.tested.contains(.postgres)))
        func bothEnginesAnswerEveryReadEndpointWithTheSameBytesAndValidators() async throws {
            let sqlite = try await H(engine: .sqlite)
            let postgres = try await H(engine: .postgres)
            let all = try await sqlite.send("GET", "/search/?q=%20&perPage=50")
            let posts = try #require(all.json?["data"] as? [String]) + ["\(H.alice)#missing"]
            for (method, target) in Self.targets(posts: posts) {
                let first = try await sqlite.send(method, target)
                let second = try await postgres.send(method, target)
                #expect(Self.record(method, target, second) == Self.record(method, target, first))
                for name in ["etag", "last-modified"] {
                    let values = [first, second].map { response in
                        response.headers.first { $0.0.lowercased() == name }?.1
                    }
                    #expect(values[1] == values[0], "\(name) of \(method) \(target)")
                }
            }
            await sqlite.stop()
            await postgres.stop()
        }
    }
}
