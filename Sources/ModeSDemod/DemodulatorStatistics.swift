import ModeS

/// Counters a demodulator keeps while it runs, for the `demod` summary and for tuning.
public struct DemodulatorStatistics: Sendable, Equatable {
    /// Complex samples consumed.
    public var samples: Int = 0
    /// Samples the receiver lost before they reached the demodulator (see
    /// `StreamingDemodulator.resume(afterDropping:emit:)`); not part of `samples`.
    public var droppedSamples: Int = 0
    /// Sample positions that passed the cheap gate and had their preamble scored.
    public var candidates: Int = 0
    /// Slicing attempts (one per phase tried).
    public var attempts: Int = 0
    /// Candidates not sliced as the shadow of a much stronger preamble 3.5 µs later
    /// (see `AcceptancePolicy.shadowsStrongerPreamble`).
    public var shadowStarts: Int = 0
    /// Candidates not sliced because one pair of their preamble's pulses is nearly empty
    /// (see `AcceptancePolicy.preambleTooUneven`).
    public var unevenStarts: Int = 0
    /// Candidates not sliced because their bits from 27 µs on are nearly all quiet, as after
    /// a Mode A/C reply (see `AcceptancePolicy.tailTooQuiet`).
    public var quietTailStarts: Int = 0
    /// Candidates not sliced because their first 19 bits are nearly all quiet, a reply
    /// starting later (see `AcceptancePolicy.headTooQuiet`).
    public var quietHeadStarts: Int = 0
    /// Address/parity replies and repaired squitters refused because they disagree with what
    /// their aircraft last reported in its extended squitters (see
    /// `AcceptancePolicy.agreesWithSquitters`, `AcceptancePolicy.repairAgreesWithSquitters`).
    public var squitterMismatches: Int = 0
    /// One-bit repairs of DF17/18 believed as collisions: the bit's empty chip held another
    /// pulse (see `AcceptancePolicy.admitsCollisionRepair`).
    public var collisionRepairs: Int = 0
    /// All-call replies (DF11) of confirmed aircraft repaired for one wrong bit outside
    /// their interrogator code (see `RepairGate.allCallRepair`).
    public var allCallRepairs: Int = 0
    /// Frames emitted, per downlink format (index 0...24).
    public var framesPerFormat = [Int](repeating: 0, count: 25)
    /// Emitted frames that needed one or two bits repaired.
    public var correctedFrames: Int = 0
    /// Frames found a second time at a nearby position and not emitted again.
    public var duplicates: Int = 0
    /// Frames subtracted from the signal because another signal showed in their empty chips.
    public var cancellations: Int = 0
    /// Frames found only in what was left after such a subtraction.
    public var recoveredFromOverlaps: Int = 0
    /// Candidates sliced again coherently (see `StreamingDemodulator.Options.coherentRetry`).
    public var coherentAttempts: Int = 0
    /// Frames those coherent slices gave.
    public var coherentFrames: Int = 0
    /// Candidates decided against their fitted channel (`ChannelFitSlicer`).
    public var channelFitAttempts: Int = 0
    /// Frames those channel fits gave.
    public var channelFitFrames: Int = 0
    /// Of those, frames a fit gave from a later start, after the first found nothing: the
    /// first usable slice, or on a weak reply another usable slice of a squitter.
    public var restartedChannelFitFrames: Int = 0
    /// DF11s whose station code, doubtful from loud empty chips, the channel fit confirmed
    /// (see `AcceptancePolicy.acceptsAllCall`).
    public var codesConfirmedByChannelFit: Int = 0
    /// DF11s whose station code the channel fit overruled (see
    /// `AcceptancePolicy.codeStandsAgainstChannelFit`), refused.
    public var codesOverruledByChannelFit: Int = 0
    /// DF11 replies refused because their code came out otherwise with the reply that
    /// follows them closely cancelled (rule 6c, `FollowerCheck`).
    public var codesTurnedByFollower: Int = 0

    /// A zeroed set of counters.
    public init() {}

    /// Frames emitted in total.
    public var frames: Int { framesPerFormat.reduce(0, +) }
}
