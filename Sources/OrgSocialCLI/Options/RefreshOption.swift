/// `--refresh`: every reading command (`timeline`, `thread`, `notifications`, `poll-results`, `fetch`,
/// `show`, `search`, `groups`) downloads each feed again, ignoring the cached copy and its validators, and
/// keeps the new copy in the cache. One definition, read once by ``CLI`` into
/// ``CommandContext/refreshesFeeds`` and applied by ``ReadingOptions/makeFetcher(in:)``.
enum RefreshOption {
    /// `--refresh`.
    static let option = OptionDefinition.flag(
        "refresh", help: "Download every feed again instead of trusting the cache (which is then renewed).")
}
