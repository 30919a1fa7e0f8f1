import Foundation
import OrgSocial
import OrgSocialClient
import TestSupport
import Testing

@Suite("TimelineFilter")
struct TimelineFilterTests {
    let me = "http://me.example/social.org"
    let other = "http://other.example/social.org"
    let recent = "2026-01-01T10:00:00+0000"

    func exclusion(
        _ post: Post, in feed: String? = nil, options: TimelineOptions = TimelineOptions()
    ) -> TimelineFilter.Reason? {
        TimelineFilter(options: options, userFeedURL: me, now: timelineNow).exclusion(of: post, inFeed: feed ?? other)
    }

    @Test func showsAPlainPost() {
        #expect(exclusion(singlePost(recent)) == nil)
    }

    @Test func hidesPureReactionsButShowsRepliesWithAMood() {
        let target = "\(me)#2025-12-31T00:00:00+0000"
        #expect(exclusion(singlePost(recent, ["REPLY_TO": target, "MOOD": "👍"], "")) == .reaction)
        #expect(exclusion(singlePost(recent, ["REPLY_TO": target, "MOOD": "👍"], "Nice!")) == nil)
    }

    @Test func hidesEmptyVotes() {
        let target = "\(me)#2025-12-31T00:00:00+0000"
        #expect(exclusion(singlePost(recent, ["REPLY_TO": target, "POLL_OPTION": "Yes"], "")) == .emptyVote)
    }

    @Test func hidesGroupPosts() {
        #expect(exclusion(singlePost(recent, ["GROUP": "swift http://relay.example"])) == .groupPost)
    }

    @Test func hidesPostsOlderThanTheAgeLimit() {
        var options = TimelineOptions()
        options.maxPostAgeDays = 7
        #expect(exclusion(singlePost("2025-12-01T00:00:00+0000"), options: options) == .tooOld)
        #expect(exclusion(singlePost(recent), options: options) == nil)
        #expect(exclusion(singlePost("2025-12-01T00:00:00+0000")) == nil)
    }

    @Test func filtersLanguagesButKeepsPostsWithoutLang() {
        var options = TimelineOptions()
        options.languageFilter = ["en", "es"]
        #expect(exclusion(singlePost(recent, ["LANG": "de"]), options: options) == .language)
        #expect(exclusion(singlePost(recent, ["LANG": "es"]), options: options) == nil)
        #expect(exclusion(singlePost(recent, ["LANG": "en-GB"]), options: options) == nil)
        #expect(exclusion(singlePost(recent), options: options) == nil)
    }

    @Test func mentionOnlyPostsNeedTheReaderAsAuthorOrMentioned() {
        let hidden = singlePost(recent, ["VISIBILITY": "mention"], "Psst [[org-social:http://x.example/social.org][x]]")
        let mentioned = singlePost(recent, ["VISIBILITY": "mention"], "Psst [[org-social:\(me)][me]]")
        #expect(exclusion(hidden) == .notMentioned)
        #expect(exclusion(mentioned) == nil)
        #expect(exclusion(hidden, in: me) == nil)
    }

    @Test func hidesScheduledPosts() {
        #expect(exclusion(singlePost("2026-02-01T00:00:00+0000")) == .scheduled)
    }

    @Test func hidesBotPosts() {
        #expect(exclusion(singlePost(recent, ["BOT": "chess 1.e4 e5"])) == .bot)
    }

    @Test func hidesBlockedFeeds() {
        var options = TimelineOptions()
        options.blockedFeeds = [other]
        #expect(exclusion(singlePost(recent), options: options) == .blocked)
    }

    @Test func aBlockedFeedIsBlockedInAnySpellingOfItsURL() {
        let options = TimelineOptions(blockedFeeds: ["HTTP://Bob.Example/./social.org"])
        #expect(options.blocks(feedURL: "http://bob.example/social.org"))
        #expect(options.blocks(postURL: "http://bob.example:80/social.org#2026-01-01T00:00:00+0000"))
        #expect(!options.blocks(feedURL: "https://bob.example/social.org"))
        var changed = options
        changed.blockedFeeds = []
        #expect(!changed.blocks(feedURL: "http://bob.example/social.org"))
    }

    @Test func hidesPostsWithInvalidIDs() {
        #expect(exclusion(singlePost("not-a-date")) == .invalidID)
    }
}
