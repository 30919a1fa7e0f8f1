/// The input shared by relay commands about one feed (`profile`, `relay register`): the `<feed-url>`
/// argument, `--relay` and `--json`.
struct RelayFeedInput {
    /// The feed's URL.
    var feedURL: String
    /// `--relay`, when given.
    var relayOption: String?
    /// `--json`.
    var printsJSON: Bool

    /// Reads the argument and options.
    /// - Throws: ``CLIError`` when `<feed-url>` is missing.
    init(parsing arguments: ParsedArguments) throws {
        feedURL = try arguments.requiredArgument("feed-url")
        relayOption = arguments.value("relay")
        printsJSON = arguments.flag("json")
    }

    /// Checks that `<feed-url>` is an http(s) URL.
    /// - Throws: ``CLIError/invalidValue(value:option:reason:)``.
    func validate() throws {
        if !FeedFileOptions.isHTTPURL(feedURL) {
            throw CLIError.invalidValue(
                value: feedURL, option: "<feed-url>", reason: "Give the http:// or https:// URL of a feed.")
        }
    }
}
