import Foundation
public import OrgSocial

/// What a new post holds, in the shape OrgSocialKit users know; ``makeDraft()`` turns it into a checked
/// `PostDraft`.
///
/// ```swift
/// let options = NewPostOptions(text: "Hello from Swift!", lang: "en", tags: "swift orgsocial")
/// let draft = try options.makeDraft()
/// ```
///
/// The kind of post follows from what is set: `include` makes a boost (a quote boost with text),
/// `replyTo` a reply (a reaction when there is only a `mood` and no text), `group` a group post, and
/// anything else a plain post.
public struct NewPostOptions: Sendable, Hashable {
    /// The body (Org markup); may be empty for a boost or a reaction.
    public var text: String
    /// `:LANG:`, an ISO 639-1 code such as `en`.
    public var lang: String?
    /// `:TAGS:`, space-separated words.
    public var tags: String?
    /// `:REPLY_TO:`, `<feed URL>#<post ID>`.
    public var replyTo: String?
    /// `:INCLUDE:` (a boost), `<feed URL>#<post ID>`.
    public var include: String?
    /// `:MOOD:`, usually an emoji.
    public var mood: String?
    /// `:GROUP:`, `<group name> <relay URL>`.
    public var group: String?
    /// `:VISIBILITY:`; `.mention` needs a mention in the text.
    public var visibility: Visibility
    /// `:CLIENT:`; `orgsocial` by default, `nil` to leave it out.
    public var client: String?

    /// Collects the options of a new post.
    /// - Parameters:
    ///   - text: the body.
    ///   - lang: the language code.
    ///   - tags: space-separated tags.
    ///   - replyTo: the post replied to.
    ///   - include: the post boosted.
    ///   - mood: the mood.
    ///   - group: the group, `<name> <relay URL>`.
    ///   - visibility: `.public` (default) or `.mention`.
    ///   - client: the client name.
    public init(
        text: String, lang: String? = nil, tags: String? = nil, replyTo: String? = nil, include: String? = nil,
        mood: String? = nil, group: String? = nil, visibility: Visibility = .public,
        client: String? = PostDraft.defaultClient
    ) {
        self.text = text
        self.lang = lang
        self.tags = tags
        self.replyTo = replyTo
        self.include = include
        self.mood = mood
        self.group = group
        self.visibility = visibility
        self.client = client
    }

    /// The checked draft these options describe, made with the core library's composers.
    /// - Returns: the draft, ready for `Feed.append(_:at:timeZone:)`.
    /// - Throws: ``OrgSocialClientError/invalidOptions(_:)`` saying which option is wrong and why.
    public func makeDraft() throws -> PostDraft {
        do {
            var draft = try composed()
            draft.client = client.flatMap { $0.isEmpty ? nil : $0 }
            return draft
        } catch let error as OrgSocialError {
            throw OrgSocialClientError.invalidOptions(error.localizedDescription)
        }
    }

    private func composed() throws -> PostDraft {
        let tagList = (tags ?? "").split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," }).map(String.init)
        let language = lang.flatMap { $0.isEmpty ? nil : $0 }
        let mood = self.mood.flatMap { $0.isEmpty ? nil : $0 }
        let hasText = !text.allSatisfy(\.isWhitespace)
        if replyTo != nil, include != nil {
            throw OrgSocialClientError.invalidOptions(
                "a post is either a reply (replyTo) or a boost (include), not both; set only one.")
        }
        let groupReference = try group.map { value in
            guard let reference = GroupReference(parsing: value) else {
                throw OrgSocialClientError.invalidOptions(
                    "group '\(value)' must be the group's name, a space, then its relay URL.")
            }
            return reference
        }
        var draft: PostDraft
        if let include {
            let target = try reference(include, option: "include")
            draft =
                hasText
                ? try PostDraft.quoteBoost(of: target, text: text, language: language)
                : try PostDraft.boost(of: target)
        } else if let replyTo {
            let target = try reference(replyTo, option: "replyTo")
            if !hasText, let mood {
                draft = try PostDraft.reaction(to: target, emoji: mood)
            } else {
                draft = try PostDraft.reply(
                    to: target, text: text, language: language, tags: tagList, mood: mood, visibility: visibility)
            }
        } else if let groupReference {
            return try PostDraft.groupPost(
                in: groupReference, text: text, language: language, tags: tagList, mood: mood)
        } else {
            draft = try PostDraft.post(text, language: language, tags: tagList, mood: mood, visibility: visibility)
        }
        if let groupReference { draft.group = groupReference }
        return draft
    }

    private func reference(_ value: String, option: String) throws -> PostReference {
        guard let reference = PostReference(parsing: value) else {
            throw OrgSocialClientError.invalidOptions("\(option) '\(value)' must be <feed URL>#<post ID>.")
        }
        return reference
    }
}
