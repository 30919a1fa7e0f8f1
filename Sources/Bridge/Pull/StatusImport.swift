import Crypto
public import Foundation
public import OrgSocial
import OrgSocialText
public import TootClient

/// How one of the account's statuses becomes an Org Social post (the Mastodon → Org direction): the source text when the
/// server has it, else its HTML converted to Org; `:CLIENT: orgsocial-bridge`, `:URL:` of the status, its
/// language and hashtags; media as Org links with their alt text; a poll as an Org poll; a reply in the
/// account's own thread as `REPLY_TO`; a reblog as `INCLUDE` or a post linking the original.
public enum StatusImport {
    /// The property naming the status a pulled post came from.
    public static let urlProperty = "URL"

    /// The post for `status`.
    /// - Parameters:
    ///   - status: the status (not a reblog wrapper; see ``reblogDraft(of:include:)``).
    ///   - source: the text as typed, when the server gave it.
    ///   - replyTo: the post the status replies to, when its parent maps to one.
    ///   - timeZone: the zone `POLL_END` is written in.
    /// - Returns: the draft.
    public static func draft(
        for status: Status, source: StatusSource?, replyTo: PostReference?, timeZone: TimeZone
    ) -> PostDraft {
        let content = statusContent(status, withHTML: source == nil)
        let converted = HTMLOrgConverter().convert(content)
        var blocks: [String] = []
        if let source {
            let spoiler = source.spoilerText.trimmingCharacters(in: .whitespacesAndNewlines)
            if !spoiler.isEmpty { blocks.append("CW: " + spoiler) }
            let text = source.text.trimmingCharacters(in: .whitespacesAndNewlines)
            if !text.isEmpty { blocks.append(text) }
            // With no HTML, the converter gives only the attachment lines (and the CW of a sensitive status).
            let media = converted.body.split(separator: "\n\n").filter { !$0.hasPrefix("CW: ") }
            blocks += media.map(String.init)
        } else if !converted.body.isEmpty {
            blocks.append(converted.body)
        }
        if let poll = status.poll, !poll.options.isEmpty {
            blocks.append(poll.options.map { "- [ ] " + singleLine($0.title) }.joined(separator: "\n"))
        }
        var draft = PostDraft(body: blocks.joined(separator: "\n\n"), client: BridgeIdentity.clientProperty)
        draft.tags = converted.tags
        draft.language = status.language.flatMap { $0.isEmpty ? nil : $0 }
        draft.replyTo = replyTo
        if let expiry = status.poll?.expiresAt {
            draft.pollEnd = OrgTimestamp.format(expiry, timeZone: timeZone)
        }
        if let link = link(of: status) {
            draft.extraProperties.append(Property(name: urlProperty, value: link))
        }
        return draft
    }

    /// The post for a reblog: `INCLUDE` of the original's post when the original maps to one, else a post
    /// linking the original.
    /// - Parameters:
    ///   - wrapper: the reblog (its `reblog` is the original).
    ///   - include: the original's post, when it maps to one.
    /// - Returns: the draft.
    public static func reblogDraft(of wrapper: Status, include: PostReference?) -> PostDraft {
        var draft = PostDraft(body: "", client: BridgeIdentity.clientProperty)
        if let include {
            draft.include = include
        } else if let original = wrapper.reblog?.value {
            let target = link(of: original) ?? ""
            let author = original.account.map { "@" + $0.acct } ?? "a status"
            draft.body = target.isEmpty ? "Boosted \(author)" : "Boosted [[\(target)][\(author)]]"
        }
        if let link = link(of: wrapper) ?? wrapper.reblog.flatMap({ link(of: $0.value) }) {
            draft.extraProperties.append(Property(name: urlProperty, value: link))
        }
        return draft
    }

    /// The status's page: `url`, else its ActivityPub `uri`.
    /// - Parameter status: the status.
    /// - Returns: the link, if the status has one.
    public static func link(of status: Status) -> String? {
        for candidate in [status.url, status.uri] {
            if let candidate, OrgSyntax.isHTTPURL(candidate) { return candidate }
        }
        return nil
    }

    /// A hash of what the server says the status is (text, warning, poll, media, edit time), to tell an edit
    /// from no change.
    /// - Parameter status: the status.
    /// - Returns: the hexadecimal SHA-256.
    public static func contentHash(of status: Status) -> String {
        var parts: [String] = [
            status.content ?? "", status.spoilerText ?? "", status.language ?? "",
            status.editedAt.map { String($0.timeIntervalSince1970) } ?? "",
        ]
        parts += (status.poll?.options ?? []).map(\.title)
        parts += (status.mediaAttachments ?? []).map { ($0.url ?? "") + " " + ($0.description ?? "") }
        parts.append(status.reblog?.value.id ?? "")
        return SHA256.hexHash(Array(parts.joined(separator: "\u{1F}").utf8))
    }

    /// What the HTML converter needs of a status.
    static func statusContent(_ status: Status, withHTML: Bool) -> StatusContent {
        StatusContent(
            html: withHTML ? status.content ?? "" : "", spoilerText: withHTML ? status.spoilerText ?? "" : "",
            sensitive: withHTML ? status.sensitive ?? false : false,
            mentions: (status.mentions ?? []).map {
                StatusContent.Mention(url: $0.url, acct: $0.acct, username: $0.username)
            }, tags: (status.tags ?? []).map(\.name),
            attachments: (status.mediaAttachments ?? []).compactMap { media in
                media.url.map { StatusContent.Attachment(url: $0, description: media.description, type: media.type) }
            })
    }

    /// `text` on one line (a poll option must be).
    private static func singleLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ").trimmingCharacters(in: .whitespaces)
    }
}
