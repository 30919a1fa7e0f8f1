/// The version of the client library, sent in the default `User-Agent` (`orgsocial/<version>`).
public enum OrgSocialClientVersion {
    /// The version string, e.g. `0.1.0`.
    public static let current = "0.1.0"
}
