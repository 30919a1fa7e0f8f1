import Crypto
import Foundation
import OrgSocial
import OrgSocialText
import TootClient

/// Turns Org Social posts into what one Mastodon-API account gets (the Org → Mastodon direction; `mastodon-api.md`
/// §4.6, §5.1): the text through ``MastodonTextRenderer`` (tags as hashtags), a `CW:` first line as the
/// content warning, own-thread replies as `in_reply_to_id`, others' replies with a link (or left out),
/// boosts of mirrored posts as reblogs (others as a link), quote boosts as text and link, polls native
/// within the server's limits (else as text), reactions to mirrored posts as favourites, linked images as
/// attachments, and text over the limit split into a thread (``ThreadSplitter``).
struct PushPlanner: Sendable {
    /// The feed's URL: replies and boosts of posts under it are the user's own.
    var feedURL: String
    /// The account's server.
    var server: ServerProfile
    /// The options.
    var options: PushOptions

    /// The server's character counting.
    var limits: MastodonTextLimits {
        MastodonTextLimits(maxCharacters: server.limits.maxCharacters, charactersPerURL: server.limits.charactersPerURL)
    }

    /// Decides what `post` becomes.
    /// - Parameters:
    ///   - post: the post.
    ///   - statusIDs: the statuses a post of this feed is mirrored as (in order), or `nil` when it is not.
    /// - Returns: the decision.
    func decide(_ post: Post, statusIDs: (String) -> [String]?) -> PostDecision {
        let postID = post.id ?? ""
        let postURL = post.url(in: feedURL) ?? feedURL
        if post.client == BridgeIdentity.clientProperty {
            return .skip(postID: postID, reason: "it was written by the bridge's pull")
        }
        if post.tags.contains(where: { $0.caseInsensitiveCompare(BridgeIdentity.optOutTag) == .orderedSame }) {
            return .skip(postID: postID, reason: "it has the tag \(BridgeIdentity.optOutTag)")
        }
        let isDirect = post.value(of: "VISIBILITY")?.lowercased() == "mention"
        if isDirect, !options.mirrorsMentionOnlyPosts {
            return .skip(postID: postID, reason: "it is a VISIBILITY: mention post")
        }
        var body = post.body
        var extra: String?
        var inReplyToID: String?
        switch post.kind {
        case .migration, .bot: return .skip(postID: postID, reason: "it is a \(post.kind.rawValue) post")
        case .vote: return .skip(postID: postID, reason: "votes are not mirrored")
        case .reaction:
            guard let target = post.replyTo, target.feedURL == feedURL, let first = statusIDs(target.postID)?.first
            else { return .skip(postID: postID, reason: "it reacts to a post that is not mirrored") }
            return .favourite(postID: postID, statusID: first)
        case .boost:
            if let target = post.include, target.feedURL == feedURL, let first = statusIDs(target.postID)?.first {
                return .reblog(postID: postID, statusID: first)
            }
            body = ""
            extra = "Boosted: \(post.include?.description ?? "")"
        case .quoteBoost:
            extra = post.include?.description
        case .reply, .post, .poll:
            if let target = post.replyTo {
                if target.feedURL == feedURL, let parent = statusIDs(target.postID)?.last {
                    inReplyToID = parent
                } else if options.replies == .skip {
                    return .skip(postID: postID, reason: "it replies to someone else's post (--replies skip)")
                } else {
                    extra = "In reply to \(target.description)"
                }
            }
        }
        var spoiler = ""
        if let (warning, rest) = Self.contentWarning(body) {
            spoiler = warning
            body = rest
        }
        var poll: StatusDraft.PollDraft?
        if post.kind == .poll, let draft = nativePoll(post) {
            poll = draft
            body = body.split(separator: "\n", omittingEmptySubsequences: false)
                .filter { PollOptionLine.option(in: $0) == nil }.joined(separator: "\n")
        }
        let renderer = MastodonTextRenderer()
        var text = renderer.text(fromOrg: body, tags: post.tags)
        if let extra { text += (text.isEmpty ? "" : "\n\n") + extra }
        if text.allSatisfy(\.isWhitespace), poll == nil, OrgImageLink.images(in: body).isEmpty {
            return .skip(postID: postID, reason: "it has no text to post")
        }
        let images = poll == nil ? Array(OrgImageLink.images(in: body).prefix(server.limits.maxMediaAttachments)) : []
        let texts: [String]
        do {
            texts = try ThreadSplitter(limits: limits).split(text, spoilerText: spoiler)
        } catch {
            return .skip(postID: postID, reason: "\(error)")
        }
        let parts = texts.map { part in
            PlannedStatus(text: part, spoilerText: spoiler, characters: limits.count(part, spoilerText: spoiler))
        }
        let targets = images.map { OrgImageTarget(target: $0.target, description: $0.description) }
        let fingerprint = [
            parts.map(\.text).joined(separator: "\u{1E}"), spoiler, post.language ?? "", isDirect ? "direct" : "",
            inReplyToID ?? "", poll.map { $0.options.joined(separator: "\u{1F}") + "|\($0.multiple)" } ?? "",
            post.value(of: "POLL_END") ?? "", targets.map { "\($0.target)|\($0.description ?? "")" }.joined(),
        ].joined(separator: "\u{1D}")
        return .statuses(
            PostPlan(
                postID: postID, postURL: postURL, parts: parts, language: post.language, isDirect: isDirect,
                inReplyToID: inReplyToID, poll: poll, images: targets,
                contentHash: SHA256.hexHash(Array(fingerprint.utf8))))
    }

    /// The poll as the server takes it, or `nil` when it does not fit its limits (or has ended): then the
    /// options stay in the text.
    private func nativePoll(_ post: Post) -> StatusDraft.PollDraft? {
        let choices = post.pollOptions
        guard let end = post.pollEnd?.instant else { return nil }
        let seconds = Int(end.timeIntervalSince(options.now()).rounded(.down))
        let counting = limits
        let destination = MastodonDestination(account: placeholderAccount) { counting.count($0) }
        guard seconds > 0, destination.validatePoll(options: choices, duration: seconds).isEmpty else { return nil }
        return StatusDraft.PollDraft(options: choices, expiresIn: seconds)
    }

    /// An account carrying only the server, for ``MastodonDestination``'s checks.
    private var placeholderAccount: BridgeAccount {
        BridgeAccount(
            name: "", instanceURL: server.instanceURL, server: server, addedAt: Date(timeIntervalSince1970: 0))
    }

    /// A `CW: warning` first line and the rest of the body, or `nil` when the body has none.
    static func contentWarning(_ body: String) -> (String, String)? {
        let lines = body.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        guard let first = lines.first else { return nil }
        let trimmed = first.trimmingCharacters(in: .whitespaces)
        guard trimmed.uppercased().hasPrefix("CW:") else { return nil }
        let warning = trimmed.dropFirst(3).trimmingCharacters(in: .whitespaces)
        guard !warning.isEmpty else { return nil }
        return (warning, lines.count > 1 ? String(lines[1]) : "")
    }
}
