import Foundation
import Testing

@testable import FeedHosting

/// The Org Social Host API over real sockets: the flows of spec §11 with the reference strings.
@Suite struct HostAPITests {
    private func json(_ object: [String: String]) throws -> [UInt8] {
        Array(try JSONSerialization.data(withJSONObject: object))
    }

    private func signup(_ node: FeedNode, nick: String) async throws -> TestResponse {
        try await send(
            node, "POST", "/signup", headers: ["Content-Type": "application/json"], body: try json(["nick": nick]))
    }

    private func upload(_ node: FeedNode, vfile: String, feed: String, headers: [String: String] = [:]) async throws
        -> TestResponse
    {
        let boundary = "----orgsocial\(UUID().uuidString)"
        return try await send(
            node, "POST", "/upload",
            headers: headers.merging(["Content-Type": "multipart/form-data; boundary=\"\(boundary)\""]) { $1 },
            body: multipartBody(
                boundary: boundary, fields: [("vfile", vfile)],
                files: [(name: "file", filename: "social.org", bytes: Array(feed.utf8))]))
    }

    private func data(_ response: TestResponse) throws -> [String: Any] {
        try #require(try response.json()["data"] as? [String: Any])
    }

    @Test func describesItselfAtTheRoot() async throws {
        try await withNode { node, _ in
            let response = try await send(node, "/")
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "application/json")
            #expect(response.text.hasPrefix(#"{"type":"Success","errors":[],"data":{"name":"#))
            let links = try #require(try response.json()["_links"] as? [String: Any])
            #expect(
                Set(links.keys) == [
                    "self", "signup", "upload", "delete", "redirect", "remove-redirect", "public-routes",
                ])
        }
    }

    @Test func signsUpUploadsRedirectsAndResumes() async throws {
        let publicSite: (inout FeedNode.Configuration) -> Void = { $0.siteURL = "https://social.example.org/" }
        try await withNode(configure: publicSite) { node, root in
            let signedUp = try await signup(node, nick: "alice")
            #expect(signedUp.status == 200)
            let vfile = try #require(try data(signedUp)["vfile"] as? String)
            #expect(try data(signedUp)["public-url"] as? String == "https://social.example.org/alice/social.org")
            let components = try #require(URLComponents(string: vfile))
            #expect(vfile.hasPrefix("https://social.example.org/vfile?token="))
            let token = try #require(components.queryItems?.first { $0.name == "token" }?.value)
            #expect(token.count == 64 && token.allSatisfy(\.isHexDigit))
            #expect(components.queryItems?.first { $0.name == "sig" }?.value?.count == 64)
            // The template, exactly.
            #expect(
                root.bytes("alice/social.org")
                    == Array(
                        """
                        #+TITLE: alice's journal
                        #+NICK: alice
                        #+DESCRIPTION:
                        #+FOLLOW: https://org-social.org/social.org
                        #+FOLLOW: https://andros.dev/static/social.org

                        * Posts

                        """.utf8))
            // The token is stored hashed only.
            let accounts = String(decoding: root.bytes(".orgsocial/accounts.json") ?? [], as: UTF8.self)
            #expect(accounts.contains("\"alice\"") && !accounts.contains(token))

            let feed = sampleFeed(text: "Uploaded")
            let uploaded = try await upload(node, vfile: vfile, feed: feed)
            #expect(uploaded.status == 200)
            #expect(try data(uploaded)["message"] as? String == "File uploaded successfully")
            #expect(uploaded.header("ETag") != nil)
            let fetched = try await send(node, "/alice/social.org")
            #expect(fetched.text == feed)
            #expect(fetched.header("ETag") == uploaded.header("ETag"))
            let folder = try await send(node, "/alice/")
            #expect(folder.status == 301)
            #expect(folder.header("Location") == "/alice/social.org")

            let redirected = try await send(
                node, "POST", "/redirect", headers: ["Content-Type": "application/json"],
                body: try json(["vfile": vfile, "new-url": "https://alice.example/social.org"]))
            #expect(redirected.status == 200)
            #expect(try data(redirected)["message"] as? String == "Redirect configured successfully")
            #expect(try data(redirected)["redirect-url"] as? String == "https://alice.example/social.org")
            let moved = try await send(node, "/alice/social.org")
            #expect(moved.status == 301)
            #expect(moved.header("Location") == "https://alice.example/social.org")
            let refused = try await upload(node, vfile: vfile, feed: feed)
            #expect(refused.status == 400)
            #expect(try refused.firstError() == "Cannot upload file while redirect is active. Remove redirect first.")
            let routes = try await send(node, "/public-routes")
            #expect(try routes.json()["data"] as? [String] == [])

            let resumed = try await send(
                node, "POST", "/remove-redirect", headers: ["Content-Type": "application/json"],
                body: try json(["vfile": vfile]))
            #expect(resumed.status == 200)
            #expect(try data(resumed)["message"] as? String == "Redirect removed successfully")
            let again = try await send(
                node, "POST", "/remove-redirect", headers: ["Content-Type": "application/json"],
                body: try json(["vfile": vfile]))
            #expect(again.status == 400)
            #expect(try again.firstError() == "No redirect configured for this account")
            #expect(try await upload(node, vfile: vfile, feed: sampleFeed(text: "Back")).status == 200)
            #expect(try await send(node, "/alice/social.org").text == sampleFeed(text: "Back"))
        }
    }

    @Test func uploadsHonourIfMatch() async throws {
        try await withNode { node, _ in
            let vfile = try #require(try data(try await signup(node, nick: "alice"))["vfile"] as? String)
            let tag = try #require(try await send(node, "/alice/social.org").header("ETag"))
            let first = try await upload(
                node, vfile: vfile, feed: sampleFeed(text: "First"), headers: ["If-Match": tag])
            #expect(first.status == 200)
            let stale = try await upload(
                node, vfile: vfile, feed: sampleFeed(text: "Second"), headers: ["If-Match": tag])
            #expect(stale.status == 412)
            #expect(stale.header("ETag") == first.header("ETag"))
            #expect(try await send(node, "/alice/social.org").text == sampleFeed(text: "First"))
        }
    }

    @Test func deletesTheFileAndReleasesTheNick() async throws {
        try await withNode { node, root in
            let vfile = try #require(try data(try await signup(node, nick: "alice"))["vfile"] as? String)
            let deleted = try await send(
                node, "POST", "/delete", headers: ["Content-Type": "application/json"], body: try json(["vfile": vfile])
            )
            #expect(deleted.status == 200)
            #expect(try data(deleted)["message"] as? String == "File deleted successfully")
            #expect(root.bytes("alice/social.org") == nil)
            let gone = try await send(node, "/alice/social.org")
            #expect(gone.status == 404)
            #expect(try gone.firstError() == "File not found")
            let twice = try await send(
                node, "POST", "/delete", headers: ["Content-Type": "application/json"], body: try json(["vfile": vfile])
            )
            #expect(twice.status == 404)
            #expect(try twice.firstError() == "File not found")
            #expect(try await signup(node, nick: "alice").status == 200)
        }
    }

    @Test func listsPublicRoutes() async throws {
        try await withNode { node, root in
            _ = try await signup(node, nick: "alice")
            _ = try await signup(node, nick: "bob")
            try root.write(sampleFeed(nick: "carol"), to: "carol/social.org")
            try root.write("", to: "empty/social.org")
            let routes = try await send(node, "/public-routes")
            let base = node.siteURL
            #expect(
                try routes.json()["data"] as? [String]
                    == ["\(base)/alice/social.org", "\(base)/bob/social.org", "\(base)/carol/social.org"])
        }
    }

    @Test func validatesNicksWithTheReferenceMessages() async throws {
        try await withNode { node, root in
            try root.write(sampleFeed(nick: "carol"), to: "carol/social.org")
            let cases: [(String, String)] = [
                ("", "Nickname is required"),
                ("ab", "Nickname must be at least 3 characters"),
                (String(repeating: "a", count: 51), "Nickname must be at most 50 characters"),
                ("a b", "Nickname can only contain letters, numbers, hyphens, and underscores"),
                ("../x", "Nickname can only contain letters, numbers, hyphens, and underscores"),
                ("carol", "Nickname 'carol' is already taken"),
            ]
            for (nick, message) in cases {
                let response = try await signup(node, nick: nick)
                #expect(response.status == 400, "\(nick)")
                #expect(try response.firstError() == message, "\(nick)")
                #expect(response.text.hasSuffix(#""data":{}}"#))
            }
            let missing = try await send(
                node, "POST", "/signup", headers: ["Content-Type": "application/json"], body: try json([:]))
            #expect(try missing.firstError() == "Nickname is required")
            // Letters of any script, and the form encoding, are accepted.
            let form = try await send(
                node, "POST", "/signup", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: Array("nick=%C3%B1and%C3%BA_2".utf8))
            #expect(form.status == 200)
            #expect(root.bytes("ñandú_2/social.org") != nil)
            #expect(try await signup(node, nick: "alice").status == 200)
            #expect(try await signup(node, nick: "alice").status == 400)
        }
    }

    @Test func refusesBadVfilesWithTheReferenceMessages() async throws {
        try await withNode { node, _ in
            let vfile = try #require(try data(try await signup(node, nick: "alice"))["vfile"] as? String)
            let components = try #require(URLComponents(string: vfile))
            let token = try #require(components.queryItems?.first { $0.name == "token" }?.value)
            let ts = try #require(components.queryItems?.first { $0.name == "ts" }?.value)
            let forged = "\(node.siteURL)/vfile?token=\(token)&ts=\(ts)&sig=\(String(repeating: "0", count: 64))"
            let otherTimestamp =
                "\(node.siteURL)/vfile?token=\(token)&ts=1&sig=\(components.queryItems?.last?.value ?? "")"
            let unknown = "\(node.siteURL)/vfile?token=\(String(repeating: "a", count: 64))&ts=\(ts)&sig=00"

            let cases: [(String?, Int, String)] = [
                (nil, 400, "vfile parameter is required"),
                ("not a url", 401, "Invalid vfile format"),
                ("\(node.siteURL)/vfile?token=abc&sig=00", 401, "Invalid vfile format"),
                (unknown, 401, "Invalid vfile token"),
                (forged, 401, "Invalid vfile signature"),
                (otherTimestamp, 401, "Invalid vfile signature"),
            ]
            for (candidate, status, message) in cases {
                let boundary = "b0undary"
                let response = try await send(
                    node, "POST", "/upload", headers: ["Content-Type": "multipart/form-data; boundary=\(boundary)"],
                    body: multipartBody(
                        boundary: boundary, fields: candidate.map { [("vfile", $0)] } ?? [],
                        files: [(name: "file", filename: "social.org", bytes: Array(sampleFeed().utf8))]))
                #expect(response.status == status, "\(candidate ?? "nil")")
                #expect(try response.firstError() == message, "\(candidate ?? "nil")")
            }
            let noFile = try await send(
                node, "POST", "/upload", headers: ["Content-Type": "multipart/form-data; boundary=x"],
                body: multipartBody(boundary: "x", fields: [("vfile", vfile)]))
            #expect(noFile.status == 400)
            #expect(try noFile.firstError() == "File is required")
            // delete and redirect answer an unknown token with 404.
            let deleteUnknown = try await send(
                node, "POST", "/delete", headers: ["Content-Type": "application/json"],
                body: try json(["vfile": unknown]))
            #expect(deleteUnknown.status == 404)
            let redirectBadURL = try await send(
                node, "POST", "/redirect", headers: ["Content-Type": "application/json"],
                body: try json(["vfile": vfile, "new-url": "ftp://x"]))
            #expect(try redirectBadURL.firstError() == "Invalid URL format. Must start with http:// or https://")
            let redirectNoURL = try await send(
                node, "POST", "/redirect", headers: ["Content-Type": "application/json"],
                body: try json(["vfile": vfile]))
            #expect(try redirectNoURL.firstError() == "new-url parameter is required")
        }
    }

    @Test func refusesOversizedAndNonUTF8Uploads() async throws {
        let smallLimit: (inout FeedNode.Configuration) -> Void = { $0.maximumUploadBytes = 1000 }
        try await withNode(configure: smallLimit) { node, _ in
            let vfile = try #require(try data(try await signup(node, nick: "alice"))["vfile"] as? String)
            let large = try await upload(node, vfile: vfile, feed: sampleFeed(posts: 20))
            #expect(large.status == 413)
            #expect(try large.firstError() == "File too large. Maximum size is 1000 bytes")
            let boundary = "x"
            let latin1 = try await send(
                node, "POST", "/upload", headers: ["Content-Type": "multipart/form-data; boundary=\(boundary)"],
                body: multipartBody(
                    boundary: boundary, fields: [("vfile", vfile)],
                    files: [(name: "file", filename: "social.org", bytes: [0x23, 0xE9, 0x0A])]))
            #expect(latin1.status == 400)
            #expect(try latin1.firstError() == "File must be UTF-8 text")
        }
    }
}
