extension Mention {
    /// The Org link that mentions a feed: `[[org-social:URL][name]]`.
    /// - Parameters:
    ///   - feedURL: the mentioned feed's URL.
    ///   - name: the text shown (usually their nick).
    /// - Returns: The link text.
    public static func link(to feedURL: String, name: String) -> String {
        "[[org-social:\(feedURL)][\(name)]]"
    }
}
