import Bridge
import Foundation
import Testing
import TootClient

@Suite struct DestinationTests {
    /// A Mastodon account destination on the sample 500-character server, counting characters plainly.
    func mastodon() throws -> MastodonDestination {
        MastodonDestination(account: try sampleAccount(), maxThreadLength: 3) { $0.count }
    }

    @Test func mastodonTextIsCheckedAgainstTheServersLimitWithItsCounter() throws {
        let destination = try mastodon()
        #expect(destination.maxTextLength == 500)
        #expect(destination.validateText(String(repeating: "a", count: 500)).isEmpty)
        #expect(destination.validateText(String(repeating: "a", count: 501)) == [.textTooLong(length: 501, limit: 500)])
        #expect(destination.validateText(" \n") == [.emptyText])
        // The counter decides: a server that counts every URL as 23 characters.
        let counting = MastodonDestination(account: try sampleAccount()) { text in
            text.split(separator: " ").map { $0.hasPrefix("https://") ? 23 : $0.count }.reduce(0, +)
                + max(0, text.split(separator: " ").count - 1)
        }
        let link = "https://example.org/" + String(repeating: "x", count: 600)
        #expect(counting.validateText("see \(link)").isEmpty)
    }

    @Test func pollsAreCheckedAgainstOptionsLengthAndDuration() throws {
        let destination = try mastodon()
        #expect(destination.validatePoll(options: ["yes", "no"], duration: 3600).isEmpty)
        #expect(destination.validatePoll(options: ["only"], duration: 3600) == [.tooFewPollOptions(count: 1)])
        #expect(
            destination.validatePoll(options: ["a", "b", "c", "d", "e"], duration: 3600)
                == [.tooManyPollOptions(count: 5, limit: 4)])
        let long = String(repeating: "o", count: 51)
        #expect(
            destination.validatePoll(options: ["a", long], duration: 60)
                == [.pollOptionTooLong(option: long, length: 51, limit: 50), .pollTooShort(seconds: 60, minimum: 300)])
        #expect(
            destination.validatePoll(options: ["a", "b"], duration: 3_000_000)
                == [.pollTooLong(seconds: 3_000_000, maximum: 2_629_746)])
    }

    @Test func aPlatformWithoutPollsRefusesEveryPoll() throws {
        var account = try sampleAccount()
        account.server.software = "pixelfed"
        account.server.version = "0.12.3"
        let destination = MastodonDestination(account: account) { $0.count }
        #expect(destination.validatePoll(options: ["a", "b"], duration: 3600) == [.pollsUnsupported])
    }

    @Test func threadsAndMediaAreCheckedAgainstTheirLimits() throws {
        let destination = try mastodon()
        #expect(destination.validateThread(count: 3).isEmpty)
        #expect(destination.validateThread(count: 4) == [.threadTooLong(count: 4, limit: 3)])
        #expect(destination.validateMedia(count: 4).isEmpty)
        #expect(destination.validateMedia(count: 5) == [.tooManyMedia(count: 5, limit: 4)])
        #expect(
            DestinationProblem.tooManyMedia(count: 5, limit: 4).description
                == "the post has 5 attachments; at most 4 fit")
    }

    @Test func theFeedTakesAnyLengthAndAnyPollButNoMedia() {
        let feed = FeedDestination(feedURL: "https://ana.example/social.org")
        #expect(feed.validateText(String(repeating: "a", count: 100_000)).isEmpty)
        #expect(feed.validatePoll(options: (1...30).map { "option \($0)" }, duration: 40_000_000).isEmpty)
        #expect(feed.validatePoll(options: ["one"], duration: 60) == [.tooFewPollOptions(count: 1)])
        let destinations: [any Destination] = [feed]
        #expect(destinations.compactMap { $0 as? any MediaDestination }.isEmpty)
        #expect(destinations.compactMap { $0 as? any ThreadDestination }.isEmpty)
    }
}
