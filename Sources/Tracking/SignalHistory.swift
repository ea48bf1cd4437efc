import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The signal level of an aircraft's last few messages, for the `rssi` of aircraft.json: the
/// mean power of its last eight received messages, in dBFS.
///
/// Averaging power over a few messages steadies the figure (single messages vary by several
/// dB with antenna patterns and overlaps) while still following an aircraft that approaches.
/// Part of the aircraft's state, so it is kept and forgotten with the aircraft.
package struct SignalHistory: Sendable, Equatable {
    /// Messages averaged.
    package static let window = 8

    private var powers: [Double] = []
    private var next = 0

    /// No message heard yet.
    package init() {}

    /// Adds a message received at `dBFS`; a level that is not a number (none measured) is
    /// left out.
    package mutating func record(dBFS: Double) {
        guard dBFS.isFinite else { return }
        let power = pow(10, dBFS / 10)
        if powers.count < Self.window {
            powers.append(power)
        } else {
            powers[next] = power
            next = (next + 1) % Self.window
        }
    }

    /// The mean power of the recent messages in dBFS; nil before the first measured one.
    package var meanDBFS: Double? {
        guard !powers.isEmpty else { return nil }
        let mean = powers.reduce(0, +) / Double(powers.count)
        return mean > 0 ? 10 * log10(mean) : nil
    }
}
