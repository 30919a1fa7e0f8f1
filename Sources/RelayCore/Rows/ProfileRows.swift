/// What the relay holds about one feed's author (the mirror API's `profile/`): the `#+` fields of its
/// header as last indexed, its follows, and how many posts, followers and follows it has.
package struct FeedProfile: Sendable, Hashable {
    /// The feed URL.
    package var feed: String
    /// `#+TITLE:`, or empty.
    package var title: String
    /// `#+NICK:`, or empty.
    package var nick: String
    /// `#+DESCRIPTION:`, or empty.
    package var description: String
    /// `#+AVATAR:`, or empty.
    package var avatar: String
    /// `#+LOCATION:`, or empty.
    package var location: String
    /// `#+BIRTHDAY:` when it is a valid date.
    package var birthday: String?
    /// `#+LANGUAGE:` codes.
    package var languages: [String]
    /// `#+PINNED:`, or empty.
    package var pinned: String
    /// `#+LINK:` values, in byte order (the relay does not keep the file's order).
    package var links: [String]
    /// `#+CONTACT:` values (`mailto:…`), in byte order.
    package var contacts: [String]
    /// The feeds it follows, oldest follow first.
    package var follows: [FollowedFeed]
    /// Its posts with text.
    package var postCount: Int
    /// The feeds known to follow it.
    package var followerCount: Int

    /// Whether the relay knows the feed only by name (another feed's `#+FOLLOW:` line made its row): no
    /// header field, link, contact, follow or post was ever read from it.
    package var isKnownOnlyByName: Bool {
        title.isEmpty && nick.isEmpty && description.isEmpty && avatar.isEmpty && links.isEmpty && contacts.isEmpty
            && follows.isEmpty && postCount == 0
    }

    /// Makes a profile.
    package init(
        feed: String, title: String = "", nick: String = "", description: String = "", avatar: String = "",
        location: String = "", birthday: String? = nil, languages: [String] = [], pinned: String = "",
        links: [String] = [], contacts: [String] = [], follows: [FollowedFeed] = [], postCount: Int = 0,
        followerCount: Int = 0
    ) {
        self.feed = feed
        self.title = title
        self.nick = nick
        self.description = description
        self.avatar = avatar
        self.location = location
        self.birthday = birthday
        self.languages = languages
        self.pinned = pinned
        self.links = links
        self.contacts = contacts
        self.follows = follows
        self.postCount = postCount
        self.followerCount = followerCount
    }
}

/// One `#+FOLLOW:` of a profile.
package struct FollowedFeed: Sendable, Hashable {
    /// The followed feed's URL.
    package var feed: String
    /// The nickname the follow line gives it, or empty.
    package var nickname: String

    /// Makes a follow.
    package init(feed: String, nickname: String) {
        self.feed = feed
        self.nickname = nickname
    }
}
