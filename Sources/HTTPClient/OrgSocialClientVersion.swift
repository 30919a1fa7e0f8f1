/// The version of orgsocial's HTTP clients (the transport, the Org Social client, TootClient), sent in the default `User-Agent` (`orgsocial/<version>`).
public enum OrgSocialClientVersion {
    /// The version string, e.g. `0.1.0`.
    public static let current = "0.1.0"
}
