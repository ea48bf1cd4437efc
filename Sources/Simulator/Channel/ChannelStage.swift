/// One impairment of the receiver's signal path, applied in place to a block of interleaved
/// I/Q values (cu8 LSB units around zero), block after block of one recording.
///
/// A stage keeps whatever state must carry from one block to the next (a filter's memory, an
/// oscillator's phase, the current gain), so the same recording cut into blocks of any size
/// comes out the same. Every stage uses only `DeterministicMath` and `SeededGenerator`: the
/// same seed gives the same bytes on every machine.
package protocol ChannelStage: Sendable {
    /// Applies the stage to `iq`, whose first complex sample has index `firstSample` in the
    /// recording.
    mutating func apply(_ iq: UnsafeMutableBufferPointer<Double>, firstSample: Int)
}
