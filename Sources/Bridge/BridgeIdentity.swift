/// How the bridge marks what it makes, on both sides, so neither direction takes the other's work back:
/// the mapping decides first, these marks still decide when the state file is lost.
public enum BridgeIdentity {
    /// The OAuth app name the bridge registers; servers show it as the `application.name` of every status the
    /// bridge posts, so a pull recognises its own pushes by it.
    public static let applicationName = "orgsocial bridge"

    /// The `:CLIENT:` value of every post a pull writes into the feed, so a push never sends it back.
    public static let clientProperty = "orgsocial-bridge"

    /// The tag that keeps a post out of every push.
    public static let optOutTag = "nobridge"
}
