import ModeS

/// What examining one candidate start gave the demodulator.
enum Examination {
    /// A validated frame, read at preamble phase `phase` (an index into
    /// `ReplyKernels.phaseOffsets`, which refines its timestamp).
    case frame(Frame, phase: Int)
    /// Nothing here: the next start fits the same reply clearly better and must be
    /// examined whatever the gate says there (see `AcceptancePolicy.defersToNextStart`).
    case deferToNext
    /// No frame at this start.
    case none
}
