import Foundation
import HTTPCore
import RelayCore

/// An error of the mirror API, written as the problem object `{"title", "detail", "status"}` the official
/// engine shows the `detail` of.
struct MirrorProblem: Error, Sendable {
    /// A short summary.
    var title: String
    /// What went wrong with this request.
    var detail: String
    /// The status code.
    var status: HTTPStatus

    /// The reply.
    var reply: RelayJSONReply {
        RelayJSONReply(
            status: status,
            body: .object([("title", .string(title)), ("detail", .string(detail)), ("status", .int(status.code))]))
    }

    /// A 404 for `what` (`"Post"`, `"Profile"`, …) that the index does not hold.
    static func notFound(_ what: String, _ detail: String) -> MirrorProblem {
        MirrorProblem(title: "\(what) not found", detail: detail, status: .notFound)
    }

    /// A 400 for a parameter.
    static func invalid(_ name: String, _ detail: String) -> MirrorProblem {
        MirrorProblem(title: "Invalid \(name)", detail: detail, status: .badRequest)
    }
}

/// The JSON of the mirror API's objects.
enum MirrorJSON {
    /// A post as the engine's `MirrorPost`: `uri`, `feedUrl`, `id`, `createdAt` (UTC, whole seconds),
    /// `type`, `author`, `content` (the Org text), `tags`, and the optional properties the post has.
    static func post(_ post: ListedPost) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("uri", .string(post.url)), ("feedUrl", .string(post.feed)), ("id", .string(post.id)),
            ("createdAt", .string(date(post.createdAt))), ("type", .string(kind(of: post))),
            ("author", .object([("url", .string(post.feed)), ("nick", .string(post.nick))])),
            ("content", .string(post.content)), ("tags", .array(post.tags.map { .string($0) })),
        ]
        let optional: [(String, String?)] = [
            ("lang", post.lang), ("client", post.client), ("replyTo", post.replyTo), ("mood", post.mood),
            ("group", post.group), ("include", post.include), ("pollEnd", post.pollEnd.map(date)),
            ("pollOption", post.pollOption),
        ]
        for (key, value) in optional {
            if let value, !value.isEmpty { members.append((key, .string(value))) }
        }
        return .object(members)
    }

    /// The kind of a post, as the `type` the mirror sends (the engine ignores it): `reaction` (a mood
    /// without text), `boost` (an include without text), `vote` (a poll option without text), `reply`, or
    /// `post`.
    static func kind(of post: ListedPost) -> String {
        let blank = post.content.allSatisfy(\.isWhitespace)
        if blank, !post.mood.isEmpty { return "reaction" }
        if blank, post.include != nil { return "boost" }
        if blank, post.pollOption != nil { return "vote" }
        return post.replyTo == nil ? "post" : "reply"
    }

    /// A profile as the engine's `MirrorProfile`: `url`, the header fields the feed has, `links`,
    /// `languages`, `contacts`, `follows` (`{url, name?}`) and the counts.
    static func profile(_ profile: FeedProfile) -> JSONValue {
        var members: [(String, JSONValue)] = [("url", .string(profile.feed))]
        let fields: [(String, String?)] = [
            ("title", profile.title), ("nick", profile.nick), ("description", profile.description),
            ("avatar", profile.avatar), ("location", profile.location), ("birthday", profile.birthday),
            ("pinned", profile.pinned),
        ]
        for (key, value) in fields {
            if let value, !value.isEmpty { members.append((key, .string(value))) }
        }
        let follows: [JSONValue] = profile.follows.map { follow in
            var members: [(String, JSONValue)] = [("url", .string(follow.feed))]
            if !follow.nickname.isEmpty { members.append(("name", .string(follow.nickname))) }
            return .object(members)
        }
        members += [
            ("links", strings(profile.links)), ("languages", strings(profile.languages)),
            ("contacts", strings(profile.contacts)), ("follows", .array(follows)),
            ("postCount", .int(profile.postCount)), ("followerCount", .int(profile.followerCount)),
            ("followingCount", .int(profile.follows.count)),
        ]
        return .object(members)
    }

    /// An array of strings.
    static func strings(_ values: [String]) -> JSONValue {
        .array(values.map { .string($0) })
    }

    /// `date` as `YYYY-MM-DDTHH:MM:SSZ` in UTC, without fractional seconds (which the engine rejects).
    static func date(_ date: Date) -> String {
        let parts = RelayTimeFormat.utcParts(Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)))
        let pad = RelayTimeFormat.pad
        return "\(pad(parts.year, 4))-\(pad(parts.month, 2))-\(pad(parts.day, 2))T"
            + "\(pad(parts.hour, 2)):\(pad(parts.minute, 2)):\(pad(parts.second, 2))Z"
    }
}
