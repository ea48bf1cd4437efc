import ModeS

/// Counters a demodulator keeps while it runs, for the `demod` summary and for tuning.
package struct DemodulatorStatistics: Sendable, Equatable {
    /// Complex samples consumed.
    package var samples: Int = 0
    /// Samples the receiver lost before they reached the demodulator (see
    /// `StreamingDemodulator.resume(afterDropping:emit:)`); not part of `samples`.
    package var droppedSamples: Int = 0
    /// Sample positions that passed the cheap gate and had their preamble scored.
    package var candidates: Int = 0
    /// Slicing attempts (one per phase tried).
    package var attempts: Int = 0
    /// Candidates not sliced as the shadow of a much stronger preamble 3.5 µs later
    /// (see `AcceptancePolicy.shadowsStrongerPreamble`).
    package var shadowStarts: Int = 0
    /// Candidates not sliced because one pair of their preamble's pulses is nearly empty
    /// (see `AcceptancePolicy.preambleTooUneven`).
    package var unevenStarts: Int = 0
    /// Candidates not sliced because their bits from 27 µs on are nearly all quiet, as after
    /// a Mode A/C reply (see `AcceptancePolicy.tailTooQuiet`).
    package var quietTailStarts: Int = 0
    /// Candidates not sliced because their first 19 bits are nearly all quiet, a reply
    /// starting later (see `AcceptancePolicy.headTooQuiet`).
    package var quietHeadStarts: Int = 0
    /// Address/parity replies and repaired squitters refused because they disagree with what
    /// their aircraft last reported in its extended squitters (see
    /// `AcceptancePolicy.agreesWithSquitters`, `AcceptancePolicy.repairAgreesWithSquitters`).
    package var squitterMismatches: Int = 0
    /// One-bit repairs of DF17/18 believed as collisions: the bit's empty chip held another
    /// pulse (see `AcceptancePolicy.admitsCollisionRepair`).
    package var collisionRepairs: Int = 0
    /// All-call replies (DF11) of confirmed aircraft repaired for one wrong bit outside
    /// their interrogator code (see `RepairGate.allCallRepair`).
    package var allCallRepairs: Int = 0
    /// Frames emitted, per downlink format (index 0...24).
    package var framesPerFormat = [Int](repeating: 0, count: 25)
    /// Emitted frames that needed one or two bits repaired.
    package var correctedFrames: Int = 0
    /// Frames found a second time at a nearby position and not emitted again.
    package var duplicates: Int = 0
    /// Frames subtracted from the signal because another signal showed in their empty chips.
    package var cancellations: Int = 0
    /// Frames found only in what was left after such a subtraction.
    package var recoveredFromOverlaps: Int = 0
    /// Candidates sliced again coherently (see `StreamingDemodulator.Options.coherentRetry`).
    package var coherentAttempts: Int = 0
    /// Frames those coherent slices gave.
    package var coherentFrames: Int = 0
    /// Candidates decided against their fitted channel (`ChannelFitSlicer`).
    package var channelFitAttempts: Int = 0
    /// Frames those channel fits gave.
    package var channelFitFrames: Int = 0
    /// Of those, frames a fit gave from a later start, after the first found nothing: the
    /// first usable slice, or on a weak reply another usable slice of a squitter.
    package var restartedChannelFitFrames: Int = 0
    /// DF11s whose station code, doubtful from loud empty chips, the channel fit confirmed
    /// (see `AcceptancePolicy.acceptsAllCall`).
    package var codesConfirmedByChannelFit: Int = 0
    /// DF11s whose station code the channel fit overruled (see
    /// `AcceptancePolicy.codeStandsAgainstChannelFit`), refused.
    package var codesOverruledByChannelFit: Int = 0
    /// DF11 replies refused because their code came out otherwise with the reply that
    /// follows them closely cancelled (the follower check, `FollowerCheck`).
    package var codesTurnedByFollower: Int = 0

    /// A zeroed set of counters.
    package init() {}

    /// Frames emitted in total.
    package var frames: Int { framesPerFormat.reduce(0, +) }
}
