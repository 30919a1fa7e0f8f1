public import TootClient

/// Somewhere a post can go, described by what it can carry (the Acarajé design): every
/// destination conforms to ``Destination`` and to the capability protocols it supports (``TextDestination``,
/// ``PollDestination``, ``ThreadDestination``, ``MediaDestination``); the bridge checks a draft against each
/// capability before it sends anything. The Org Social feed is one destination, a Mastodon account another.
public protocol Destination: Sendable {
    /// The name to show in messages: the feed's URL or the account's name.
    var name: String { get }
}

/// A destination that takes text, up to a length it counts its own way.
public protocol TextDestination: Destination {
    /// The most characters a post may have, as ``textLength(_:)`` counts them.
    var maxTextLength: Int { get }
    /// The length of `text` as this destination counts it.
    /// - Parameter text: the text.
    /// - Returns: its length.
    func textLength(_ text: String) -> Int
}

/// A destination that takes polls.
public protocol PollDestination: Destination {
    /// The limits a poll must keep.
    var pollLimits: PollLimits { get }
}

/// A destination that can chain posts as replies to each other (a long post split in parts).
public protocol ThreadDestination: Destination {
    /// The most posts one thread may have.
    var maxThreadLength: Int { get }
}

/// A destination that takes media attachments.
public protocol MediaDestination: Destination {
    /// The most attachments on one post.
    var maxMediaAttachments: Int { get }
}

/// What a poll must keep to: options, their length, its duration.
public struct PollLimits: Sendable, Hashable {
    /// The most options (0: no polls).
    public var maxOptions: Int
    /// The most characters in an option.
    public var maxCharactersPerOption: Int
    /// The shortest duration, in seconds.
    public var minDuration: Int
    /// The longest duration, in seconds.
    public var maxDuration: Int

    /// Makes limits.
    /// - Parameters:
    ///   - maxOptions: the most options.
    ///   - maxCharactersPerOption: the most characters per option.
    ///   - minDuration: the shortest duration in seconds.
    ///   - maxDuration: the longest duration in seconds.
    public init(maxOptions: Int, maxCharactersPerOption: Int, minDuration: Int, maxDuration: Int) {
        self.maxOptions = maxOptions
        self.maxCharactersPerOption = maxCharactersPerOption
        self.minDuration = minDuration
        self.maxDuration = maxDuration
    }
}

/// Why a draft cannot go to a destination as it is.
public enum DestinationProblem: Sendable, Hashable, CustomStringConvertible {
    /// The text is empty.
    case emptyText
    /// The text is longer than the destination takes.
    case textTooLong(length: Int, limit: Int)
    /// The destination takes no polls.
    case pollsUnsupported
    /// A poll needs at least two options.
    case tooFewPollOptions(count: Int)
    /// More options than the destination takes.
    case tooManyPollOptions(count: Int, limit: Int)
    /// An option is longer than the destination takes.
    case pollOptionTooLong(option: String, length: Int, limit: Int)
    /// The poll ends sooner than the destination allows.
    case pollTooShort(seconds: Int, minimum: Int)
    /// The poll lasts longer than the destination allows.
    case pollTooLong(seconds: Int, maximum: Int)
    /// More posts in a thread than the destination takes.
    case threadTooLong(count: Int, limit: Int)
    /// More attachments than the destination takes.
    case tooManyMedia(count: Int, limit: Int)
    /// The destination would not take the post, for the reason given.
    case refused(String)

    /// The problem in a sentence.
    public var description: String {
        switch self {
        case .emptyText: return "the text is empty"
        case .textTooLong(let length, let limit): return "the text has \(length) characters; at most \(limit) fit"
        case .pollsUnsupported: return "polls cannot be posted here"
        case .tooFewPollOptions(let count): return "a poll needs at least 2 options, not \(count)"
        case .tooManyPollOptions(let count, let limit): return "the poll has \(count) options; at most \(limit) fit"
        case .pollOptionTooLong(let option, let length, let limit):
            return "the option '\(option)' has \(length) characters; at most \(limit) fit"
        case .pollTooShort(let seconds, let minimum): return "the poll lasts \(seconds) s; at least \(minimum) s"
        case .pollTooLong(let seconds, let maximum): return "the poll lasts \(seconds) s; at most \(maximum) s"
        case .threadTooLong(let count, let limit): return "the thread has \(count) posts; at most \(limit) fit"
        case .tooManyMedia(let count, let limit): return "the post has \(count) attachments; at most \(limit) fit"
        case .refused(let reason): return reason
        }
    }
}

extension TextDestination {
    /// Checks a text against ``maxTextLength``.
    /// - Parameter text: the text.
    /// - Returns: the problems; empty when it fits.
    public func validateText(_ text: String) -> [DestinationProblem] {
        if text.allSatisfy(\.isWhitespace) { return [.emptyText] }
        let length = textLength(text)
        return length > maxTextLength ? [.textTooLong(length: length, limit: maxTextLength)] : []
    }
}

extension PollDestination {
    /// Checks a poll against ``pollLimits``.
    /// - Parameters:
    ///   - options: the options, in order.
    ///   - duration: how long it runs, in seconds.
    /// - Returns: the problems; empty when it fits.
    public func validatePoll(options: [String], duration: Int) -> [DestinationProblem] {
        let limits = pollLimits
        guard limits.maxOptions > 0 else { return [.pollsUnsupported] }
        var problems: [DestinationProblem] = []
        if options.count < 2 { problems.append(.tooFewPollOptions(count: options.count)) }
        if options.count > limits.maxOptions {
            problems.append(.tooManyPollOptions(count: options.count, limit: limits.maxOptions))
        }
        for option in options where option.count > limits.maxCharactersPerOption {
            problems.append(
                .pollOptionTooLong(option: option, length: option.count, limit: limits.maxCharactersPerOption))
        }
        if duration < limits.minDuration {
            problems.append(.pollTooShort(seconds: duration, minimum: limits.minDuration))
        }
        if duration > limits.maxDuration {
            problems.append(.pollTooLong(seconds: duration, maximum: limits.maxDuration))
        }
        return problems
    }
}

extension ThreadDestination {
    /// Checks the number of posts of a thread.
    /// - Parameter count: how many posts.
    /// - Returns: the problems; empty when it fits.
    public func validateThread(count: Int) -> [DestinationProblem] {
        count > maxThreadLength ? [.threadTooLong(count: count, limit: maxThreadLength)] : []
    }
}

extension MediaDestination {
    /// Checks the number of attachments of a post.
    /// - Parameter count: how many attachments.
    /// - Returns: the problems; empty when it fits.
    public func validateMedia(count: Int) -> [DestinationProblem] {
        count > maxMediaAttachments ? [.tooManyMedia(count: count, limit: maxMediaAttachments)] : []
    }
}

/// The Org Social feed as a destination: text of any length (counted in characters) and polls without
/// limits of their own (Org Social sets none); no attachments, since media are links in the text. Threads
/// are not a capability: a post is never split in the feed.
public struct FeedDestination: TextDestination, PollDestination {
    /// The feed's URL.
    public var name: String

    /// Makes the feed destination.
    /// - Parameter feedURL: the feed's URL.
    public init(feedURL: String) { name = feedURL }

    /// No limit.
    public var maxTextLength: Int { Int.max }

    /// Characters (grapheme clusters).
    /// - Parameter text: the text.
    /// - Returns: its number of characters.
    public func textLength(_ text: String) -> Int { text.count }

    /// At least two options, any number and length, any duration from now on.
    public var pollLimits: PollLimits {
        PollLimits(maxOptions: Int.max, maxCharactersPerOption: Int.max, minDuration: 1, maxDuration: Int.max)
    }
}

/// A Mastodon-API account as a destination, with the limits its server reported at discovery.
///
/// How a server counts characters (every URL as `charactersPerURL`, a mention by its username) belongs to
/// the text converters, so the counter is given by the caller.
public struct MastodonDestination: TextDestination, PollDestination, ThreadDestination, MediaDestination {
    /// The account's name in the bridge.
    public var name: String
    /// The discovered server.
    public var server: ServerProfile
    /// Counts a text as the server does.
    public let counter: @Sendable (String) -> Int
    /// The most statuses a split post becomes.
    public var maxThreadLength: Int

    /// Makes the destination of an account.
    /// - Parameters:
    ///   - account: the bridge account.
    ///   - maxThreadLength: the most statuses a split post may become; 10 by default.
    ///   - counter: counts a text as the server does (URLs at `InstanceLimits.charactersPerURL`).
    public init(account: BridgeAccount, maxThreadLength: Int = 10, counter: @escaping @Sendable (String) -> Int) {
        name = account.name
        server = account.server
        self.maxThreadLength = maxThreadLength
        self.counter = counter
    }

    /// The server's `max_characters`.
    public var maxTextLength: Int { server.limits.maxCharacters }

    /// The length as the server counts it.
    /// - Parameter text: the text.
    /// - Returns: its length.
    public func textLength(_ text: String) -> Int { counter(text) }

    /// The server's poll limits; none when its platform has no polls.
    public var pollLimits: PollLimits {
        let limits = server.limits
        guard server.platform.supports(.polls) else {
            return PollLimits(maxOptions: 0, maxCharactersPerOption: 0, minDuration: 0, maxDuration: 0)
        }
        return PollLimits(
            maxOptions: limits.pollMaxOptions, maxCharactersPerOption: limits.pollMaxCharactersPerOption,
            minDuration: limits.pollMinExpiration, maxDuration: limits.pollMaxExpiration)
    }

    /// The server's `max_media_attachments`.
    public var maxMediaAttachments: Int { server.limits.maxMediaAttachments }
}
