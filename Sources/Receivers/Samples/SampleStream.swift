import FoundationEssentials
import IQ
import Logging
import ModeS
import ModeSDemod
import Pipeline
import Support

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One stream of IQ blocks on its way into the pipeline: the demodulator that finds frames in
/// it and the clock that says when each frame was received. The dongle and the replay both
/// go through it, so a recording is handled exactly like live samples.
///
/// Not thread-safe: one instance per stream, fed from the thread that demodulates.
package final class SampleStream {
    /// The demodulator (its statistics are the stream's).
    package let demodulator: StreamingDemodulator
    /// The stream's clock.
    package private(set) var clock: SampleClock
    /// Frames handed to the pipeline so far.
    package private(set) var frames = 0
    private let sink: any FrameSink
    /// The label of the source the samples come from.
    private let label: String
    /// What this block counted for stats.json, handed to the pipeline at its end.
    private var counted = LocalStatistics()
    private var noiseMeter = SamplePower()
    /// Keeps the demodulator within `options.budget`, when one is set.
    private var governor: DemodulatorGovernor?
    /// Where the governor's changes are logged, if anywhere.
    private var logger: Logger?
    /// At most six lines a minute of them: a replay many times faster than real time can
    /// bring several a second.
    private var levelLines = LogThrottle(interval: .seconds(60), burst: 6)

    /// A stream of `format` samples at `sampleRate` from the source labelled `label`,
    /// demodulated with `options` into `sink`.
    package init(
        format: SampleFormat, sampleRate: SampleRate, options: StreamingDemodulator.Options,
        into sink: any FrameSink, label: String
    ) {
        self.label = label
        demodulator = StreamingDemodulator(format: format, sampleRate: sampleRate, options: options)
        clock = SampleClock(sampleRate: sampleRate.hertz)
        self.sink = sink
        governor = options.budget.map { DemodulatorGovernor(budget: $0, level: options.level, pace: options.pace) }
    }

    /// Takes over the level, the governor and the log throttle of `previous`, a stream of
    /// the same source that ended (a replay's last pass): the governor keeps measuring across
    /// passes shorter than its window, as over a dongle's continuous stream.
    package func continueGoverning(after previous: SampleStream) {
        governor = previous.governor
        levelLines = previous.levelLines
        demodulator.setLevel(previous.demodulator.level)
    }

    /// Logs each change of the demodulator's level the governor makes to `logger`, and, when
    /// `announce`, how the level is set.
    package func logLevelChanges(to logger: Logger, announce: Bool = true) {
        self.logger = logger
        guard announce else { return }
        if let budget = governor?.budget {
            let level = demodulator.level == .full ? "" : ", starting at level \(demodulator.level)"
            logger.info("\(label): demodulator governed within \(Int((budget * 100).rounded()))% of a core\(level)")
        } else if demodulator.level != .full {
            logger.info("\(label): demodulator held at level \(demodulator.level.rawValue) (\(demodulator.level))")
        }
    }

    /// Demodulates `block`; after a loss, what came before it is finished first. `ringFill`:
    /// how full the ring the block came from still is (0 to 1), for the governor.
    package func process(_ block: IQBlock, ringFill: Double = 0) {
        if block.droppedSamples > 0 {
            // What came before the gap is timed by the block it came in.
            demodulator.resume(afterDropping: block.droppedSamples) { deliver($0) }
        }
        // Whole samples this block completes, with the bytes of one split across blocks.
        let carried = demodulator.carriedBytes
        let count = (carried + block.bytes.count) / demodulator.format.bytesPerSample
        clock.advance(count: count, arrival: block.arrival, dropped: block.droppedSamples)
        let started = Self.threadSeconds()
        let preambles = demodulator.statistics.candidates
        demodulator.process(block.bytes) { deliver($0) }
        counted.preambles += demodulator.statistics.candidates - preambles
        counted.samplesProcessed += count
        counted.samplesDropped += block.droppedSamples
        // The noise is measured on the samples that start in this block: after a read that
        // split a sample, the first bytes end the one before.
        let split = min(block.bytes.count, carried == 0 ? 0 : demodulator.format.bytesPerSample - carried)
        let noise = noiseMeter.noise(
            of: UnsafeRawBufferPointer(rebasing: block.bytes[split...]), format: demodulator.format)
        counted.noisePowerSum += noise.power * Double(noise.measured)
        counted.noiseSamples += noise.measured
        counted.clippedSamples += noise.clipped
        let spent = Self.threadSeconds() - started
        counted.demodulationSeconds += spent
        govern(spent: spent, samples: count, ringFill: ringFill)
        handOn()
    }

    /// Counts `samples` at the demodulator's level, and lets the governor move the level
    /// when their demodulation took `spent` seconds of processor time.
    private func govern(spent: Double, samples: Int, ringFill: Double) {
        let air = Double(samples) / Double(demodulator.sampleRate.hertz)
        counted.demodulatorLevel = demodulator.level.rawValue
        counted.addSeconds(air, atLevel: demodulator.level.rawValue)
        guard let change = governor?.observe(cpuSeconds: spent, airSeconds: air, ringFill: ringFill) else { return }
        demodulator.setLevel(change.to)
        counted.demodulatorLevel = change.to.rawValue
        counted.levelChanges += 1
        guard let logger, let covered = levelLines.record(now: .now) else { return }
        let more = covered > 1 ? " (\(covered - 1) more changes since the last line)" : ""
        logger.info(
            "\(label): demodulator \(change.from.rawValue) (\(change.from)) -> \(change.to.rawValue) (\(change.to)): \(change.reason)\(more)"
        )
    }

    /// Leaves `block` out, as if its samples had been lost: the samples on either side are
    /// never joined into one frame. For the samples received while the tuner's gain changed;
    /// counted as such, not as drops.
    package func skip(_ block: IQBlock) {
        let carried = demodulator.carriedBytes
        let count = (carried + block.bytes.count) / demodulator.format.bytesPerSample
        demodulator.resume(afterDropping: block.droppedSamples + count) { deliver($0) }
        clock.advance(count: 0, arrival: block.arrival, dropped: block.droppedSamples + count)
        counted.samplesDropped += block.droppedSamples
        counted.gainChangeSamples += count
        handOn()
    }

    /// Records a change of the tuner's gain, for the statistics.
    package func noteGain(_ decibels: Double?, changed: Bool) {
        counted.gainDB = decibels
        if changed { counted.gainChanges += 1 }
    }

    /// What the last block counted, as handed to the pipeline.
    package private(set) var lastBlock = LocalStatistics()

    /// Hands this block's counts to the pipeline.
    private func handOn() {
        lastBlock = counted
        sink.addLocal(counted)
        counted = LocalStatistics()
    }

    /// Processor time of the calling thread, in seconds.
    private static func threadSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Ends the stream; returns the bytes of an incomplete final sample (0 when whole).
    @discardableResult
    package func finish() -> Int {
        let remaining = demodulator.finish { deliver($0) }
        sink.addLocal(counted)
        counted = LocalStatistics()
        return remaining
    }

    private func deliver(_ frame: Frame) {
        frames += 1
        counted.accept(dBFS: frame.signalLevel, repairedBits: frame.correctedBits)
        sink.accept(frame, at: clock.stamp(timestamp: frame.timestamp), from: label)
    }
}
