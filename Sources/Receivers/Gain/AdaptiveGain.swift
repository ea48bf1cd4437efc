import FoundationEssentials
import IQ
import Logging
import Pipeline
import Support
import Synchronization

/// Runs a `GainController` on a stream of sample blocks, on the thread that demodulates them:
/// gathers each block's noise and clipping into one measurement per second of samples, hands
/// the controller's moves to a thread of their own (setting a tuner's gain is a USB control
/// transfer, a few milliseconds the demodulator should not wait), and has the block received
/// while the gain changed left out, so that no frame joins samples from either side of a
/// change.
///
/// Time is the samples' own (seconds of samples seen), so a recording replayed faster than real
/// time makes the same decisions as live samples.
package final class AdaptiveGain: @unchecked Sendable {
    // Touched only by the demodulating thread, except `applied`.
    private var controller: GainController
    private let sampleRate: Double
    private let setGain: @Sendable (Double) throws -> Double
    private let settled: @Sendable (Double) -> Void
    private var lastSettled: Double?
    private let logger: Logger
    private var seconds = 0.0
    private var interval = LocalStatistics()
    private var lines = LogThrottle(interval: .seconds(60), burst: 6)
    /// Changes the setting thread has made that the demodulating thread has not yet seen.
    private let applied = Mutex(0)

    /// Drives `controller` on samples at `sampleRate`; `setGain` sets the tuner to a gain (dB)
    /// and returns the gain it set; `settled` hears each gain the controller settles on (off the
    /// demodulating thread: it may write a file).
    package init(
        controller: GainController, sampleRate: Double, logger: Logger,
        setGain: @escaping @Sendable (Double) throws -> Double,
        settled: @escaping @Sendable (Double) -> Void = { _ in }
    ) {
        self.controller = controller
        self.sampleRate = sampleRate
        self.logger = logger
        self.setGain = setGain
        self.settled = settled
    }

    /// The gain the controller holds, dB.
    package var gain: Double { controller.gain }

    /// Whether the next block must be left out: the gain changed while it was being received.
    /// (A change lands somewhere in the transfers in flight; the block popped next after it
    /// is the one being filled then, unless demodulation had fallen behind.)
    package func shouldSkipNextBlock() -> Bool {
        applied.withLock { count in
            defer { count = 0 }
            return count > 0
        }
    }

    /// Takes what a block counted; once a second of samples is gathered, asks the controller
    /// and starts any move it makes. Returns whether the gain moved.
    @discardableResult
    package func observe(_ block: LocalStatistics) -> Bool {
        interval.add(block)
        let samples = interval.samplesProcessed + interval.gainChangeSamples + interval.samplesDropped
        guard Double(samples) >= sampleRate else { return false }
        seconds += Double(samples) / sampleRate
        let measurement = GainMeasurement(
            noiseDBFS: interval.meanNoiseDBFS ?? -100, clippedShare: interval.clippedShare ?? 0,
            samples: interval.noiseSamples)
        interval = LocalStatistics()
        let before = controller.gain
        guard let wanted = controller.update(measurement, now: seconds) else {
            if controller.settled, lastSettled != controller.gain {
                let gain = controller.gain
                lastSettled = gain
                DedicatedThread.start(name: "tuner-gain") { [settled] in settled(gain) }
            }
            return false
        }
        report(from: before, to: wanted, measurement)
        DedicatedThread.start(name: "tuner-gain") { [self] in
            do {
                _ = try setGain(wanted)
            } catch {
                logger.warning("adaptive gain: \(error)")
            }
            applied.withLock { $0 += 1 }
        }
        return true
    }

    private func report(from before: Double, to after: Double, _ measurement: GainMeasurement) {
        guard let covered = lines.record(now: .now) else { return }
        let more = covered > 1 ? " (\(covered - 1) more changes since the last line)" : ""
        let noise = DecimalText.fixed(measurement.noiseDBFS, places: 1)
        let clipped = DecimalText.fixed(measurement.clippedShare * 100, places: 3)
        logger.info(
            "adaptive gain: \(DecimalText.fixed(before, places: 1)) -> \(DecimalText.fixed(after, places: 1)) dB (noise \(noise) dBFS, \(clipped)% of samples clipped)\(more)"
        )
    }
}

/// Where a source puts its adaptive gain once it knows the tuner (rtl_tcp's greeting), for
/// the thread that demodulates to find.
package final class AdaptiveGainSlot: Sendable {
    private let gain = Mutex<AdaptiveGain?>(nil)

    /// An empty slot.
    package init() {}

    /// The adaptive gain, once set.
    package var value: AdaptiveGain? {
        get { gain.withLock { $0 } }
        set { gain.withLock { $0 = newValue } }
    }
}

extension SampleStream {
    /// Demodulates `ring` until it is closed and drained. While `gain()` gives an adaptive
    /// gain, each block feeds its measurements, and the block received during a change of gain
    /// is left out (`skip`). Returns the bytes of an incomplete final sample (see `finish`).
    @discardableResult
    package func drain(_ ring: SampleRing, gain: () -> AdaptiveGain?) -> Int {
        while ring.pop({ block in
            let fill = ring.fill
            guard let adaptive = gain() else { return process(block, ringFill: fill) }
            if adaptive.shouldSkipNextBlock() { skip(block) } else { process(block, ringFill: fill) }
            if adaptive.observe(lastBlock) { noteGain(adaptive.gain, changed: true) }
        }) {}
        return finish()
    }
}
