import Foundation
import Testing

@testable import FeedHosting

/// Which request paths name a feed.
struct FeedPathTests {
    @Test func acceptsTheTwoShapes() throws {
        #expect(FeedPath(segments: ["social.org"]) == .top)
        #expect(FeedPath(segments: ["alice", "social.org"])?.folder == "alice")
        #expect(try FeedPath(validating: "/bob/social.org").relativePath == "bob/social.org")
        #expect(FeedPath(folder: "ñandú")?.urlPath == "/%C3%B1and%C3%BA/social.org")
    }

    @Test func refusesEverythingElse() {
        for segments in [
            ["social.org", ""], ["a", "b", "social.org"], [".hidden", "social.org"], ["..", "social.org"],
            ["a/b", "social.org"], ["a\\b", "social.org"], ["", "social.org"], ["alice", "notes.txt"], ["Social.org"],
            ["a\u{0}b", "social.org"],
        ] {
            #expect(FeedPath(segments: segments) == nil, "\(segments)")
        }
        #expect(throws: FeedHostingError.invalidFeedPath("a/b/social.org")) {
            try FeedPath(validating: "a/b/social.org")
        }
    }

    @Test func setupErrorsDescribeTheProblemWithoutNamingOptions() {
        let errors: [FeedHostingError] = [
            .rootNotFound(path: "/srv/feeds"), .rootNotAFolder(path: "/srv/feeds"), .invalidFeedPath("a/b/social.org"),
            .invalidSiteURL("ftp://x"),
        ]
        #expect(errors[0].localizedDescription == "The feed root '/srv/feeds' does not exist.")
        #expect(
            errors[2].localizedDescription
                == "'a/b/social.org' is not a feed path: a feed path is 'social.org' or '<name>/social.org', where "
                + "the name has no '/' and does not start with '.'.")
        for error in errors {
            #expect(!error.localizedDescription.contains("--"))
        }
    }
}
