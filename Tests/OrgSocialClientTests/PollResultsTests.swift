import Foundation
import OrgSocial
import TestSupport
import Testing

@testable import OrgSocialClient

/// A poll's percentages: whole numbers that add up to 100.
@Suite("LocalIndex.PollResults")
struct PollResultsTests {
    let pollster = "http://pollster.example/social.org"
    var poll: String { "\(pollster)#2026-01-01T00:00:00+0000" }

    /// The poll with one voter feed per entry of `votes`, each voting for the option given.
    func results(votes: [String]) throws -> LocalIndex.PollResults {
        let pollFeed = feedText(
            nick: "pollster",
            posts: [
                (
                    "2026-01-01T00:00:00+0000", ["POLL_END": "2026-01-02T00:00:00+0000"],
                    "Pick:\n- [ ] Tea\n- [ ] Coffee\n- [ ] Milk"
                )
            ])
        var feeds = [FetchedFeed(url: pollster, feed: Feed(parsing: pollFeed))]
        for (number, option) in votes.enumerated() {
            let voter = feedText(
                nick: "voter\(number)",
                posts: [("2026-01-01T01:00:00+0000", ["REPLY_TO": poll, "POLL_OPTION": option], "")])
            feeds.append(FetchedFeed(url: "http://voter\(number).example/social.org", feed: Feed(parsing: voter)))
        }
        return try #require(LocalIndex(feeds: feeds).pollResults(for: poll))
    }

    @Test func aPollsPercentagesFollowItsOptionsAndAddUpToAHundred() throws {
        #expect(try results(votes: ["Tea", "Coffee", "Milk"]).percentages == [34, 33, 33])
        #expect(try results(votes: ["Tea", "Tea", "Coffee"]).percentages == [67, 33, 0])
        #expect(try results(votes: ["Milk"]).percentages == [0, 0, 100])
    }

    @Test func aPollWithoutVotesIsAllZero() throws {
        #expect(try results(votes: []).percentages == [0, 0, 0])
    }

    @Test func largestRemaindersGetThePointsLeftEarlierOptionsFirstOnTies() {
        #expect(LocalIndex.PollResults.percentages(of: [1, 1, 1]) == [34, 33, 33])
        #expect(LocalIndex.PollResults.percentages(of: [2, 1]) == [67, 33])
        #expect(LocalIndex.PollResults.percentages(of: [1, 6]) == [14, 86])
        #expect(LocalIndex.PollResults.percentages(of: [0, 0]) == [0, 0])
        for counts in [[1, 2, 4], [3, 3, 3, 3, 3, 3, 1], [7, 0, 2]] {
            #expect(LocalIndex.PollResults.percentages(of: counts).reduce(0, +) == 100)
        }
    }
}
