extension Duration {
    /// The duration in seconds as a `Double`, attoseconds included: the one conversion the
    /// modules after the tracker use for rates, intervals and log text, instead of each
    /// adding `components.seconds` and `components.attoseconds` by hand.
    package var inSeconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }
}
