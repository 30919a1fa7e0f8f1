import Foundation
import HTTPClient
import HTTPCore
import TestSupport
import Testing

/// The servers whose tests run here (all under CI; elsewhere the installed ones, with a line for the rest).
/// (Apache's `nobody` workers may outlive its parent under root: `WebDAVServer` stops every process of its
/// configuration.)
private let davKinds = WebDAVServer.Kind.allCases.filter { WebDAVServer.testsRun($0, suite: "WebDAVServerTests") }
private let apacheRuns = davKinds.contains(.apache)
private let nginxRuns = davKinds.contains(.nginx)

/// What real WebDAV servers do with the requests a WebDAV feed destination sends (issue 45), pinned
/// against Debian's Apache 2.4 (`mod_dav_fs`) and nginx (its dav module), each started by the test on
/// 127.0.0.1 and spoken to through our own `CurlTransport`.
///
/// What was found, and what a client has to do about it:
/// - Both send an `ETag` on `GET`, and neither on the answer to `PUT` (read again to learn the new one).
/// - Apache's is `"<size>-<mtime in µs>"` in hex, so a same-size rewrite in the same second changes it;
///   it honours `If-Match` (412 when stale) and `If-None-Match: *` (412 when the file exists) on `PUT`.
///   But for one second after a file changed, it sends the tag weak (`W/"…"`), and during that second
///   *every* `If-Match` fails with 412, the weak tag and the same tag made strong alike: a client retries
///   after a second, with the tag without `W/`.
/// - nginx's is `"<mtime in s>-<size>"` in hex, so a rewrite of the same size within the same second
///   keeps the tag; and its dav module ignores `If-Match` and `If-None-Match` on `PUT` altogether (it
///   overwrites), though it honours `If-Match` on `GET`. A client must compare the bytes just before its
///   `PUT`, which narrows the window but cannot close it.
@Suite struct WebDAVServerTests {
    private let transport = CurlTransport(timeout: .seconds(10))

    /// One request to `name` on `dav`, with its password unless `authorization` says otherwise.
    private func send(
        _ dav: WebDAVServer, _ method: HTTPMethod, _ name: String = "social.org", headers: [(String, String)] = [],
        body: String? = nil, authorization: String? = nil
    ) async throws -> HTTPClientResponse {
        var fields = HTTPHeaders(headers)
        fields["Authorization"] = authorization ?? dav.authorization
        if body != nil { fields["Content-Type"] = "text/plain; charset=utf-8" }
        return try await transport.send(
            HTTPClientRequest(
                method: method, url: dav.url(name), headers: fields, body: Array((body ?? "").utf8),
                followsRedirects: false))
    }

    /// The `ETag` of a `GET` of `name`.
    private func currentTag(_ dav: WebDAVServer, _ name: String = "social.org") async throws -> String {
        let response = try await send(dav, .get, name)
        #expect(response.status == 200)
        return try #require(response.headers["ETag"], "no ETag from \(dav.kind)")
    }

    /// Writes `text` behind the server's back (another writer), with a modification time `age` ago, so
    /// that Apache's tag is strong and nginx's names that second.
    private func writeBehind(_ dav: WebDAVServer, _ text: String, modified age: TimeInterval = 10) throws {
        try writeBehind(dav, text, at: Date(timeIntervalSinceNow: -age))
    }

    /// Writes `text` behind the server's back with the modification time `time`.
    private func writeBehind(_ dav: WebDAVServer, _ text: String, at time: Date) throws {
        let path = try dav.replaceFile("social.org", with: Array(text.utf8))
        try FileManager.default.setAttributes([.modificationDate: time], ofItemAtPath: path)
    }

    // MARK: - Both servers

    @Test(arguments: davKinds)
    func createsWithPutAndAnswersAGetWithTheBytesAndAnETag(kind: WebDAVServer.Kind) async throws {
        try await withServer(try WebDAVServer(kind)) { dav in
            let created = try await send(dav, .put, headers: [("If-None-Match", "*")], body: "#+TITLE: Ana\n")
            #expect(created.status == 201)
            #expect(created.headers["ETag"] == nil)
            #expect(dav.fileBytes("social.org") == Array("#+TITLE: Ana\n".utf8))
            let read = try await send(dav, .get)
            #expect(read.status == 200)
            #expect(read.text == "#+TITLE: Ana\n")
            #expect(read.headers["ETag"] != nil)
            let rewritten = try await send(dav, .put, body: "#+TITLE: Ana 2\n")
            #expect(rewritten.status == 204)
            #expect(rewritten.headers["ETag"] == nil)
        }
    }

    @Test(arguments: davKinds)
    func aWrongPasswordIs401WithABasicChallengeAndNothingLands(kind: WebDAVServer.Kind) async throws {
        try await withServer(try WebDAVServer(kind)) { dav in
            try writeBehind(dav, "#+TITLE: Ana\n")
            let wrong = WebDAVServer.basic(user: dav.user, password: "not the password")
            let put = try await send(dav, .put, body: "#+TITLE: Mallory\n", authorization: wrong)
            #expect(put.status == 401)
            #expect(put.headers["WWW-Authenticate"] == "Basic realm=\"orgsocial-test\"")
            let otherUser = WebDAVServer.basic(user: "someone", password: dav.password)
            #expect(try await send(dav, .put, body: "#+TITLE: Mallory\n", authorization: otherUser).status == 401)
            #expect(try await send(dav, .get, authorization: wrong).status == 401)
            #expect(dav.fileBytes("social.org") == Array("#+TITLE: Ana\n".utf8))
        }
    }

    @Test(arguments: davKinds)
    func aPutWithTheCurrentTagInIfMatchLands(kind: WebDAVServer.Kind) async throws {
        try await withServer(try WebDAVServer(kind)) { dav in
            try writeBehind(dav, "#+TITLE: Ana\n")
            let tag = try await currentTag(dav)
            let saved = try await send(dav, .put, headers: [("If-Match", tag)], body: "#+TITLE: Ana 2\n")
            #expect(saved.status == 204)
            #expect(dav.fileBytes("social.org") == Array("#+TITLE: Ana 2\n".utf8))
        }
    }

    // MARK: - Apache

    @Test(.enabled(if: apacheRuns)) func apacheTagsAreSizeAndMicrosecondMtimeInHex() async throws {
        try await withServer(try WebDAVServer(.apache)) { dav in
            let second = Int(Date().timeIntervalSince1970) - 10
            try writeBehind(dav, "#+TITLE: Ana\n", at: Date(timeIntervalSince1970: Double(second) + 0.25))
            let microseconds = second * 1_000_000 + 250_000
            #expect(try await currentTag(dav) == "\"\(String(13, radix: 16))-\(String(microseconds, radix: 16))\"")
        }
    }

    @Test(.enabled(if: apacheRuns)) func apacheRefusesAStaleIfMatchWith412() async throws {
        try await withServer(try WebDAVServer(.apache)) { dav in
            try writeBehind(dav, "#+TITLE: Ana\n", modified: 20)
            let tag = try await currentTag(dav)
            try writeBehind(dav, "#+TITLE: Ana, by the other writer\n", modified: 10)
            let stale = try await send(dav, .put, headers: [("If-Match", tag)], body: "#+TITLE: Ana 2\n")
            #expect(stale.status == 412)
            #expect(dav.fileBytes("social.org") == Array("#+TITLE: Ana, by the other writer\n".utf8))
        }
    }

    @Test(.enabled(if: apacheRuns)) func apacheRefusesIfNoneMatchStarOnAnExistingFileWith412() async throws {
        try await withServer(try WebDAVServer(.apache)) { dav in
            try writeBehind(dav, "#+TITLE: Ana\n")
            let existing = try await send(dav, .put, headers: [("If-None-Match", "*")], body: "#+TITLE: Other\n")
            #expect(existing.status == 412)
            #expect(dav.fileBytes("social.org") == Array("#+TITLE: Ana\n".utf8))
            // And `If-Match: *` on a file that does not exist.
            let missing = try await send(dav, .put, "missing.org", headers: [("If-Match", "*")], body: "x\n")
            #expect(missing.status == 412)
            #expect(dav.fileBytes("missing.org") == nil)
        }
    }

    @Test(.enabled(if: apacheRuns)) func apacheTagsAreWeakForASecondAfterAChangeAndEveryIfMatchFails() async throws {
        try await withServer(try WebDAVServer(.apache)) { dav in
            #expect(try await send(dav, .put, body: "#+TITLE: Ana\n").status == 201)
            let weak = try await currentTag(dav)
            #expect(weak.hasPrefix("W/\""))
            let strong = String(weak.dropFirst(2))
            for tag in [weak, strong] {
                let refused = try await send(dav, .put, headers: [("If-Match", tag)], body: "#+TITLE: Ana 2\n")
                #expect(refused.status == 412, "If-Match: \(tag)")
            }
            #expect(dav.fileBytes("social.org") == Array("#+TITLE: Ana\n".utf8))
            // A second later the same tag is strong, and it lands.
            try await Task.sleep(for: .milliseconds(1100))
            #expect(try await currentTag(dav) == strong)
            let saved = try await send(dav, .put, headers: [("If-Match", strong)], body: "#+TITLE: Ana 2\n")
            #expect(saved.status == 204)
        }
    }

    @Test(.enabled(if: apacheRuns)) func apacheChangesTheTagOnASameSizeRewriteWithinOneSecond() async throws {
        try await withServer(try WebDAVServer(.apache)) { dav in
            let second = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 10).rounded(.down))
            try writeBehind(dav, "#+TITLE: aaa\n", at: second.addingTimeInterval(0.1))
            let first = try await currentTag(dav)
            try writeBehind(dav, "#+TITLE: bbb\n", at: second.addingTimeInterval(0.6))
            #expect(try await currentTag(dav) != first)
        }
    }

    // MARK: - nginx

    @Test(.enabled(if: nginxRuns)) func nginxTagsAreSecondMtimeAndSizeInHex() async throws {
        try await withServer(try WebDAVServer(.nginx)) { dav in
            let second = (Date().timeIntervalSince1970 - 10).rounded(.down)
            try writeBehind(dav, "#+TITLE: Ana\n", at: Date(timeIntervalSince1970: second + 0.25))
            #expect(try await currentTag(dav) == "\"\(String(Int(second), radix: 16))-\(String(13, radix: 16))\"")
        }
    }

    @Test(.enabled(if: nginxRuns)) func nginxIgnoresIfMatchOnPut() async throws {
        try await withServer(try WebDAVServer(.nginx)) { dav in
            try writeBehind(dav, "#+TITLE: Ana\n", modified: 20)
            let tag = try await currentTag(dav)
            try writeBehind(dav, "#+TITLE: Ana, by the other writer\n", modified: 10)
            #expect(try await currentTag(dav) != tag)
            let stale = try await send(dav, .put, headers: [("If-Match", tag)], body: "#+TITLE: Ana 2\n")
            // Not 412: the other writer's version is overwritten.
            #expect(stale.status == 204)
            #expect(dav.fileBytes("social.org") == Array("#+TITLE: Ana 2\n".utf8))
            let invented = try await send(dav, .put, headers: [("If-Match", "\"0-0\"")], body: "#+TITLE: Ana 3\n")
            #expect(invented.status == 204)
            #expect(dav.fileBytes("social.org") == Array("#+TITLE: Ana 3\n".utf8))
        }
    }

    @Test(.enabled(if: nginxRuns)) func nginxIgnoresIfNoneMatchStarOnPut() async throws {
        try await withServer(try WebDAVServer(.nginx)) { dav in
            try writeBehind(dav, "#+TITLE: Ana\n")
            let existing = try await send(dav, .put, headers: [("If-None-Match", "*")], body: "#+TITLE: Other\n")
            #expect(existing.status == 204)
            #expect(dav.fileBytes("social.org") == Array("#+TITLE: Other\n".utf8))
        }
    }

    @Test(.enabled(if: nginxRuns)) func nginxHonoursIfMatchOnGet() async throws {
        try await withServer(try WebDAVServer(.nginx)) { dav in
            try writeBehind(dav, "#+TITLE: Ana\n")
            let tag = try await currentTag(dav)
            #expect(try await send(dav, .get, headers: [("If-Match", tag)]).status == 200)
            #expect(try await send(dav, .get, headers: [("If-Match", "\"0-0\"")]).status == 412)
        }
    }

    @Test(.enabled(if: nginxRuns)) func nginxKeepsTheTagOnASameSizeRewriteWithinOneSecond() async throws {
        try await withServer(try WebDAVServer(.nginx)) { dav in
            let second = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 10).rounded(.down))
            try writeBehind(dav, "#+TITLE: aaa\n", at: second.addingTimeInterval(0.1))
            let first = try await currentTag(dav)
            try writeBehind(dav, "#+TITLE: bbb\n", at: second.addingTimeInterval(0.6))
            // Other bytes, same tag: the tag cannot tell these two versions apart.
            #expect(try await currentTag(dav) == first)
            #expect(try await send(dav, .get).text == "#+TITLE: bbb\n")
            // Another size in the same second does change it.
            try writeBehind(dav, "#+TITLE: cccc\n", at: second.addingTimeInterval(0.9))
            #expect(try await currentTag(dav) != first)
        }
    }
}
