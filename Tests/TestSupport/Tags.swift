import Testing

/// Swift Testing tags shared by the test targets.
extension Tag {
    /// Slow tests: end-to-end runs of the binary, interop with other decoders, load tests,
    /// regenerating the samples. `make test` runs them; `swift test --skip EndToEndTests`
    /// leaves the biggest group out for a quick run.
    @Tag package static var slow: Self
}
