import ModeS

/// One way of deciding the bits of a candidate: which of its best preamble phases to read
/// the bits at, and which slicer decides them.
///
/// A candidate is sliced by a short list of these (see `SlicePlan`), in order, until one
/// gives bits that the acceptance rules admit.
struct SliceAttempt: Equatable {
    /// How the bits are decided.
    enum Slicer: Equatable {
        /// Each bit on its own, from its two chips (`BitSlicer` without feedback).
        case plain
        /// Each bit after subtracting the part of the previous bit's pulse that the
        /// receiver's band limit smears into it, scaled to the reply's pulse amplitude.
        case amplitudeFeedback
        /// Each bit with its first sample weighted by what the previous decision leaks into
        /// it (see `BitSlicer.smearFeedback`): needs no amplitude and suits pulses smeared
        /// by the receiver's filter more than by the sampling phase.
        case smearFeedback
        /// The most likely sequence of bits over the whole reply (`SequenceSlicer`): weak
        /// replies whose chips blur into each other are better decided jointly.
        case sequence
        /// The bits decided against the reply's own fitted channel (`ChannelFitSlicer`),
        /// starting from an earlier slice.
        case channelFit
    }

    /// The rank of the preamble phase the bits are read at (0: the best-fitting one).
    let rank: Int
    /// The slicer that decides the bits.
    let slicer: Slicer

    /// Whether decisions depend on earlier decisions: one wrong bit can propagate, so
    /// bits that nothing else checks (a DF11's interrogator code) need a second opinion.
    var usesFeedback: Bool { slicer != .plain }

    /// The `feedback` argument of `BitSlicer` for this attempt, given the reply's pulse
    /// amplitude above the floor at this phase (`level`, at least 1). The sequence attempt
    /// reports the amplitude feedback's confidences, the closest bit-by-bit equivalent.
    @inline(__always)
    func feedback(level: Int32) -> Int32 {
        switch slicer {
        case .plain: 0
        case .amplitudeFeedback, .sequence, .channelFit: level
        case .smearFeedback: BitSlicer.smearFeedback
        }
    }
}
