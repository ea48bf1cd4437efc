/// Trains of Comm-B replies from aircraft close to a Mode S radar: the radar reads several
/// registers in one beam dwell, and the aircraft answers each interrogation with a long
/// DF20/DF21 reply, one every 136.5 µs (each reply's 120 µs plus the 16.5 µs until the next
/// interrogation's reply).
///
/// A demodulator must not mistake the gap for the start of a reply, nor let the end of one
/// reply hide the preamble of the next.
package struct InterrogationTrains: Sendable, Equatable {
    /// Share of the aircraft close enough to a radar to be read in trains.
    package var fraction: Double
    /// Mean trains per second per such aircraft (Poisson).
    package var trainsPerSecond: Double
    /// Replies in a train.
    package var length: ClosedRange<Int> = 3...10

    /// Trains for `fraction` of the aircraft, `trainsPerSecond` each.
    package init(fraction: Double, trainsPerSecond: Double) {
        self.fraction = fraction
        self.trainsPerSecond = trainsPerSecond
    }

    /// From the start of one reply of a train to the start of the next, seconds.
    package static let period = 136.5e-6
}
