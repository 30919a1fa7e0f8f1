extension CLI {
    /// The `User-Agent` header of the tool's requests: `orgsocial/<version>`.
    package static var userAgent: String { "\(name)/\(version)" }
}
