package import Foundation

/// One poll of a feed (`/polls/?feed=`).
package struct FeedPoll: Sendable, Hashable {
    /// The poll's URL.
    package var post: String
    /// Its post ID.
    package var postID: String
    /// Its content.
    package var content: String
    /// When it closes.
    package var pollEnd: Date
    /// Its options, in order.
    package var options: [String]
    /// The parsed post instant.
    package var createdAt: Date

    /// Makes a poll.
    package init(post: String, postID: String, content: String, pollEnd: Date, options: [String], createdAt: Date) {
        self.post = post
        self.postID = postID
        self.content = content
        self.pollEnd = pollEnd
        self.options = options
        self.createdAt = createdAt
    }
}

/// One vote a feed cast (`/polls/?voter=`).
package struct CastVote: Sendable, Hashable {
    /// The voting post.
    package var votePost: String
    /// The poll.
    package var poll: String
    /// The poll author's nick.
    package var pollAuthor: String
    /// The poll's content.
    package var pollContent: String
    /// The option chosen.
    package var option: String
    /// When the vote was cast.
    package var votedAt: Date

    /// Makes a vote.
    package init(votePost: String, poll: String, pollAuthor: String, pollContent: String, option: String, votedAt: Date)
    {
        self.votePost = votePost
        self.poll = poll
        self.pollAuthor = pollAuthor
        self.pollContent = pollContent
        self.option = option
        self.votedAt = votedAt
    }
}

/// The votes of one post per option (`/polls/votes/`).
package struct PollTally: Sendable, Hashable {
    /// The post's stored URL.
    package var poll: String
    /// Whether the post is a poll at all (has a `POLL_END`).
    package var isPoll: Bool
    /// The votes of each option, in option order; votes for unknown options are dropped.
    package var options: [OptionVotes]

    /// Makes a tally.
    package init(poll: String, isPoll: Bool, options: [OptionVotes]) {
        self.poll = poll
        self.isPoll = isPoll
        self.options = options
    }
}

/// The votes of one option, newest vote first.
package struct OptionVotes: Sendable, Hashable {
    /// The option.
    package var option: String
    /// The voting posts.
    package var votes: [String]

    /// Makes the votes.
    package init(option: String, votes: [String]) {
        self.option = option
        self.votes = votes
    }
}
