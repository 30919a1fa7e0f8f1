import Foundation
import RelayServer
import TestSupport
import Testing

extension RelayAPISuite {
    /// Routing, framework-level errors and the headers of every response (`relay-api.md` §1.1, §1.2, §1.6).
    @Suite
    struct RelayRoutingTests {
        static let cors: [(String, String)] = [
            ("Access-Control-Allow-Origin", "*"),
            ("Access-Control-Allow-Methods", "GET, POST, PUT, PATCH, DELETE, OPTIONS"),
            ("Access-Control-Allow-Headers", "Content-Type, Authorization, X-Requested-With"),
            ("Access-Control-Max-Age", "86400"),
            ("X-Content-Type-Options", "nosniff"),
            ("Referrer-Policy", "same-origin"),
            ("Cross-Origin-Opener-Policy", "same-origin"),
        ]

        static func expectCommonHeaders(_ response: RawResponse, sourceLocation: SourceLocation = #_sourceLocation) {
            for (name, value) in cors {
                #expect(response.header(name) == value, "\(name)", sourceLocation: sourceLocation)
            }
        }

        @Test func optionsOnAnyPathIsAnEmpty200BeforeRouting() async throws {
            let relay = try await RelayServerHarness(loaded: false)
            for target in ["/", "/mentions/", "/nowhere/at/all", "//feeds/", "/feeds"] {
                let response = try await relay.send("OPTIONS", target)
                #expect(response.status == 200, "\(target)")
                #expect(response.body.isEmpty)
                #expect(response.header("Content-Type") == "text/html; charset=utf-8")
                Self.expectCommonHeaders(response)
            }
            await relay.stop()
        }

        @Test func unknownPathsGetDjangosNotFoundPageWithCORS() async throws {
            let relay = try await RelayServerHarness(loaded: false)
            for target in ["/nowhere/", "/nowhere", "//feeds/", "//sse/notifications/", "/rss.xml/", "/groups/a/b/"] {
                let response = try await relay.send("GET", target)
                #expect(response.status == 404, "\(target)")
                #expect(response.header("Content-Type") == "text/html; charset=utf-8")
                #expect(
                    response.text.contains(
                        "<h1>Not Found</h1><p>The requested resource was not found on this server.</p>"))
                #expect(response.header("ETag") == nil)
                Self.expectCommonHeaders(response)
            }
            await relay.stop()
        }

        @Test func aMissingTrailingSlashIsA301KeepingTheQueryForAnyMethod() async throws {
            let relay = try await RelayServerHarness(loaded: false)
            let cases: [(String, String, String)] = [
                ("GET", "/feeds", "/feeds/"),
                ("POST", "/feeds", "/feeds/"),
                (
                    "GET", "/mentions?feed=http%3A%2F%2Fa.example%2Fsocial.org",
                    "/mentions/?feed=http%3A%2F%2Fa.example%2Fsocial.org"
                ),
                ("HEAD", "/groups/emacs", "/groups/emacs/"),
                ("DELETE", "/sse/notifications?feed=x", "/sse/notifications/?feed=x"),
                ("GET", "/stats?", "/stats/"),
            ]
            for (method, target, location) in cases {
                let response = try await relay.send(method, target)
                #expect(response.status == 301, "\(method) \(target)")
                #expect(response.header("Location") == location)
                Self.expectCommonHeaders(response)
            }
            await relay.stop()
        }

        @Test func wrongMethodsGet405WithAllow() async throws {
            let relay = try await RelayServerHarness(loaded: false)
            let post = try await relay.send("POST", "/mentions/")
            #expect(post.status == 405)
            #expect(post.text == #"{"detail":"Method \"POST\" not allowed."}"#)
            #expect(post.header("Allow") == "GET, HEAD, OPTIONS")
            #expect(post.header("Content-Type") == "application/json; charset=utf-8")
            Self.expectCommonHeaders(post)
            let put = try await relay.send("PUT", "/feeds/")
            #expect(put.status == 405)
            #expect(put.text == #"{"detail":"Method \"PUT\" not allowed."}"#)
            #expect(put.header("Allow") == "GET, POST, HEAD, OPTIONS")
            let rss = try await relay.send("DELETE", "/rss.xml")
            #expect(rss.status == 405)
            #expect(rss.header("Allow") == "GET, HEAD, OPTIONS")
            await relay.stop()
        }

        @Test func headAnswersLikeGetWithoutABody() async throws {
            let relay = try await RelayServerHarness()
            for target in [
                "/", "/mentions/?feed=\(Self.encoded(RelayServerHarness.bob))", "/rss.xml", "/stats/", "/feeds/",
            ] {
                let get = try await relay.send("GET", target)
                let head = try await relay.send("HEAD", target)
                #expect(get.status == 200, "\(target)")
                #expect(head.status == 200)
                #expect(head.body.isEmpty)
                #expect(head.header("Content-Length") == String(get.body.count))
                #expect(head.header("Content-Type") == get.header("Content-Type"))
                #expect(head.header("ETag") == get.header("ETag"))
                Self.expectCommonHeaders(head)
            }
            await relay.stop()
        }

        @Test func anAcceptHeaderWithoutJSONIs406AndIndentPrettyPrints() async throws {
            let relay = try await RelayServerHarness()
            let html = try await relay.send("GET", "/feeds/", headers: [("Accept", "text/html")])
            #expect(html.status == 406)
            #expect(html.text == #"{"detail":"Could not satisfy the request Accept header."}"#)
            Self.expectCommonHeaders(html)
            let any = try await relay.send("GET", "/feeds/", headers: [("Accept", "text/html, */*;q=0.8")])
            #expect(any.status == 200)
            let compact = try await relay.send("GET", "/feeds/")
            #expect(
                compact.text.hasPrefix(
                    #"{"type":"Success","errors":[],"data":["http://127.0.0.1:8801/alice/social.org","#))
            let pretty = try await relay.send("GET", "/feeds/", headers: [("Accept", "application/json; indent=2")])
            #expect(pretty.status == 200)
            #expect(
                pretty.text.hasPrefix("{\n  \"type\": \"Success\",\n  \"errors\": [],\n  \"data\": [\n    \"http://"))
            // DRF's `?format=` override: `json` wins over Accept, anything else is a 404 detail.
            let formatJSON = try await relay.send("GET", "/feeds/?format=json", headers: [("Accept", "text/html")])
            #expect(formatJSON.status == 200)
            let formatXML = try await relay.send("GET", "/stats/?format=xml")
            #expect(formatXML.status == 404)
            #expect(formatXML.text == #"{"detail":"Not found."}"#)
            // The root is a plain Django view: no negotiation.
            let root = try await relay.send("GET", "/", headers: [("Accept", "text/html")])
            #expect(root.status == 200)
            await relay.stop()
        }

        @Test func theRootIsDjangosJsonResponseByteForByte() async throws {
            let relay = try await RelayServerHarness(loaded: false)
            let response = try await relay.send("GET", "/")
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "application/json")
            #expect(response.header("ETag")?.count == 10)
            #expect(response.header("Last-Modified")?.hasSuffix(" GMT") == true)
            Self.expectCommonHeaders(response)
            func link(
                _ key: String, _ href: String, _ method: String = "GET", templated: Bool = false,
                _ description: String? = nil
            )
                -> String
            {
                var text = #""\#(key)": {"href": "\#(href)", "method": "\#(method)""#
                if templated { text += #", "templated": true"# }
                if let description { text += #", "description": "\#(description)""# }
                return text + "}"
            }
            let links = [
                link("self", "/"), link("feeds", "/feeds/"), link("add-feed", "/feeds/", "POST"),
                link("feed-content", "/feed-content/?feed={feed_url}", templated: true),
                link("mentions", "/mentions/?feed={feed_url}", templated: true),
                link("replies", "/replies/?post={post_url}", templated: true),
                link("notifications", "/notifications/?feed={feed_url}", templated: true),
                link("sse-notifications", "/sse/notifications/?feed={feed_url}", templated: true),
                link("sse-notifications-all", "/sse/notifications/"),
                link("reactions", "/reactions/?feed={feed_url}", templated: true),
                link("replies-to", "/replies-to/?feed={feed_url}", templated: true),
                link("boosts", "/boosts/?post={post_url}", templated: true),
                link("interactions", "/interactions/?post={post_url}", templated: true),
                link("search", "/search/?q={query}", templated: true), link("groups", "/groups/"),
                link("group-messages", "/groups/{group_name}/", templated: true),
                link("join-group", "/groups/{group_name}/members/?feed={feed_url}", "POST", templated: true),
                link("polls", "/polls/"), link("poll-votes", "/polls/votes/?post={post_url}", templated: true),
                link("profile", "/profile/?feed={feed_url}", templated: true),
                link(
                    "rss", "/rss.xml", "GET",
                    "RSS feed of latest posts (supports ?tag={tag} and ?feed={feed_url} filters)"),
                link("stats", "/stats/"), link("bridge", "/bridge/"),
                link(
                    "bridge-activitypub", "/bridge/activitypub/@{user}@{instance}/", templated: true,
                    "ActivityPub account as a virtual social.org feed"),
                link(
                    "bridge-rss", "/bridge/rss/?url={feed_url}", templated: true,
                    "RSS/Atom feed as a virtual social.org feed"),
            ]
            let expected =
                #"{"type": "Success", "errors": [], "data": {"name": "Org Social Relay", "description": "P2P system for Org Social files"}, "_links": {"#
                + links.joined(separator: ", ") + "}}"
            #expect(response.text == expected)
            await relay.stop()
        }

        @Test func readEndpointsAnswerFromTheStoreInTheEnvelope() async throws {
            let relay = try await RelayServerHarness()
            let mentions = try await relay.send("GET", "/mentions/?feed=\(Self.encoded(RelayServerHarness.bob))")
            #expect(mentions.status == 200)
            #expect(mentions.header("Content-Type") == "application/json; charset=utf-8")
            #expect(
                mentions.text.hasPrefix(
                    #"{"type":"Success","errors":[],"data":["http://127.0.0.1:8801/alice/social.org#2025-02-01T10:00:00+0100"]"#
                ))
            let missing = try await relay.send("GET", "/mentions/")
            #expect(missing.status == 400)
            #expect(missing.text == #"{"type":"Error","errors":["Feed URL parameter is required"],"data":null}"#)
            #expect(missing.header("ETag") == nil)
            let group = try await relay.send("GET", "/groups/emacs/")
            #expect(group.status == 200)
            let reactions = try await relay.send("GET", "/reactions/?feed=\(Self.encoded(RelayServerHarness.alice))")
            #expect(reactions.text.contains("\"emoji\":\"👍\""))
            await relay.stop()
        }

        @Test func feedContentNeedsAFeedAndAsksTheGateway() async throws {
            let relay = try await RelayServerHarness(loaded: false)
            let blank = try await relay.send("GET", "/feed-content/?feed=%20%20")
            #expect(blank.status == 400)
            #expect(blank.text == #"{"type":"Error","errors":["Feed URL parameter is required"],"data":null}"#)
            let answered = try await relay.send("GET", "/feed-content/?feed=%20http%3A%2F%2Fa.example%2Fsocial.org%20")
            #expect(answered.status == 200)
            #expect(answered.json?["type"] as? String == "Success")
            #expect(answered.header("ETag") != nil)
            #expect(await relay.gateway.fetched == ["http://a.example/social.org"])
            await relay.stop()
        }

        static func encoded(_ text: String) -> String {
            text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
        }
    }
}
