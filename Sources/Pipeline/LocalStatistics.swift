import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a local receiver (a dongle or a replayed recording, demodulated here) counts, for
/// stats.json's `local` section: samples, preambles, accepted frames, signal and noise power,
/// and the processor time demodulation took.
///
/// The receiving side adds one block's worth at a time to the `FramePipeline`; periods are the
/// difference of two totals. Powers are relative to full scale (1.0), summed, so that means
/// over any period are exact.
package struct LocalStatistics: Sendable, Equatable {
    /// Samples demodulated.
    package var samplesProcessed = 0
    /// Samples lost before demodulation (a full ring, a gap in the stream).
    package var samplesDropped = 0
    /// Candidate replies whose preamble was examined.
    package var preambles = 0
    /// Frames accepted, by the number of bits repaired (0, 1, 2).
    package var accepted = [0, 0, 0]
    /// Sum of the accepted frames' signal powers.
    package var signalPowerSum = 0.0
    /// Strongest accepted frame's signal power.
    package var peakSignalPower = 0.0
    /// Accepted frames above -3 dBFS (near clipping: the gain may be too high).
    package var strongSignals = 0
    /// Sum over the measured samples of the noise power each block's measurement gave (so
    /// that dividing by `noiseSamples` is the mean noise power).
    package var noisePowerSum = 0.0
    /// Samples measured for the noise level.
    package var noiseSamples = 0
    /// Of those, samples with I or Q at the converter's rails (cut flat: the gain may be too
    /// high).
    package var clippedSamples = 0
    /// The tuner's gain in dB, as last set (nil: the tuner's own AGC, or not a dongle).
    package var gainDB: Double?
    /// Times the adaptive gain moved.
    package var gainChanges = 0
    /// Samples left out because the gain changed while they were received.
    package var gainChangeSamples = 0
    /// Processor time spent demodulating, seconds.
    package var demodulationSeconds = 0.0
    /// The demodulator's level now (0, plain, to 4, full; see ModeSDemod's
    /// `DemodulatorLevel`); nil: nothing demodulated.
    package var demodulatorLevel: Int?
    /// Times the governor moved the demodulator's level.
    package var levelChanges = 0
    /// Seconds of samples demodulated at each level, plain first (empty until a sample is).
    package private(set) var secondsAtLevel: [Double] = []

    /// Counts `seconds` of samples demodulated at `level` (0 to 4).
    package mutating func addSeconds(_ seconds: Double, atLevel level: Int) {
        guard (0..<Self.levels).contains(level) else { return }
        if secondsAtLevel.isEmpty { secondsAtLevel = Array(repeating: 0, count: Self.levels) }
        secondsAtLevel[level] += seconds
    }

    /// How many levels the demodulator has.
    package static let levels = 5

    /// Nothing counted.
    package init() {}

    /// Frames accepted, repaired or not.
    package var acceptedFrames: Int { accepted.reduce(0, +) }

    /// Mean power of the accepted frames in dBFS; nil when no frame was accepted (or none
    /// had a measured level).
    package var meanSignalDBFS: Double? {
        acceptedFrames > 0 ? Self.decibels(signalPowerSum / Double(acceptedFrames)) : nil
    }

    /// Mean noise power of the measured samples in dBFS; nil when nothing was measured.
    package var meanNoiseDBFS: Double? {
        noiseSamples > 0 ? Self.decibels(noisePowerSum / Double(noiseSamples)) : nil
    }

    /// The share of the measured samples that were clipped; nil when nothing was measured.
    package var clippedShare: Double? {
        noiseSamples > 0 ? Double(clippedSamples) / Double(noiseSamples) : nil
    }

    /// Power of the strongest accepted frame in dBFS; nil when there was none.
    package var peakSignalDBFS: Double? { Self.decibels(peakSignalPower) }

    /// A power relative to full scale in dB; nil for no power at all.
    package static func decibels(_ power: Double) -> Double? {
        power > 0 ? 10 * log10(power) : nil
    }

    /// Counts one accepted frame received at `dBFS` with `repairedBits` bits repaired.
    package mutating func accept(dBFS: Double, repairedBits: Int) {
        accepted[min(max(repairedBits, 0), accepted.count - 1)] += 1
        guard dBFS.isFinite else { return }
        let power = Self.power(dBFS: dBFS)
        signalPowerSum += power
        peakSignalPower = max(peakSignalPower, power)
        if dBFS > -3 { strongSignals += 1 }
    }

    /// Adds `other` (a block's counts) to these totals.
    package mutating func add(_ other: LocalStatistics) {
        samplesProcessed += other.samplesProcessed
        samplesDropped += other.samplesDropped
        preambles += other.preambles
        for index in accepted.indices { accepted[index] += other.accepted[index] }
        signalPowerSum += other.signalPowerSum
        peakSignalPower = max(peakSignalPower, other.peakSignalPower)
        strongSignals += other.strongSignals
        noisePowerSum += other.noisePowerSum
        noiseSamples += other.noiseSamples
        clippedSamples += other.clippedSamples
        gainDB = other.gainDB ?? gainDB
        gainChanges += other.gainChanges
        gainChangeSamples += other.gainChangeSamples
        demodulationSeconds += other.demodulationSeconds
        demodulatorLevel = other.demodulatorLevel ?? demodulatorLevel
        levelChanges += other.levelChanges
        for (level, seconds) in other.secondsAtLevel.enumerated() { addSeconds(seconds, atLevel: level) }
    }

    /// The counts between `earlier` and these later totals. The peak of a period is not
    /// recoverable from two totals: it is the later one's, an upper bound.
    package func since(_ earlier: LocalStatistics) -> LocalStatistics {
        var period = LocalStatistics()
        period.samplesProcessed = samplesProcessed - earlier.samplesProcessed
        period.samplesDropped = samplesDropped - earlier.samplesDropped
        period.preambles = preambles - earlier.preambles
        period.accepted = zip(accepted, earlier.accepted).map { $0 - $1 }
        period.signalPowerSum = signalPowerSum - earlier.signalPowerSum
        period.peakSignalPower = peakSignalPower
        period.strongSignals = strongSignals - earlier.strongSignals
        period.noisePowerSum = noisePowerSum - earlier.noisePowerSum
        period.noiseSamples = noiseSamples - earlier.noiseSamples
        period.clippedSamples = clippedSamples - earlier.clippedSamples
        period.gainDB = gainDB
        period.gainChanges = gainChanges - earlier.gainChanges
        period.gainChangeSamples = gainChangeSamples - earlier.gainChangeSamples
        period.demodulationSeconds = demodulationSeconds - earlier.demodulationSeconds
        period.demodulatorLevel = demodulatorLevel
        period.levelChanges = levelChanges - earlier.levelChanges
        for (level, seconds) in secondsAtLevel.enumerated() {
            period.addSeconds(
                seconds - (earlier.secondsAtLevel.indices.contains(level) ? earlier.secondsAtLevel[level] : 0),
                atLevel: level)
        }
        return period
    }

    /// The power (relative to full scale) of a level in dBFS.
    static func power(dBFS: Double) -> Double { pow(10, dBFS / 10) }
}
