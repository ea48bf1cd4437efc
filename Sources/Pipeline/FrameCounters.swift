/// What the pipeline counted of everything it admitted, for the statistics line, stats.json
/// and /metrics.
package struct FrameCounters: Sendable, Equatable {
    /// Frames admitted (CRC-checked or address-confirmed, and no copy of another source's).
    package var frames = 0
    /// Frames whose parity was repaired.
    package var correctedFrames = 0
    /// External state reports (OpenSky).
    package var stateUpdates = 0
    /// Frames admitted, by downlink format (index 0 to 24; 24 stands for 24 and above, as
    /// `ModeSBits.downlinkFormat` reports them).
    package var framesByFormat = [Int](repeating: 0, count: 25)

    /// All zero.
    package init() {}
}
