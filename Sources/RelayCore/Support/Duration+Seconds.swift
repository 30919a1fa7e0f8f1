extension Duration {
    /// The duration in seconds (the crawler, the bridges and the stores' leases use it).
    package var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
