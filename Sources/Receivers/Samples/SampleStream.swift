import ModeS
import ModeSDemod
import Tracking

/// One stream of IQ blocks on its way into the tracker: the demodulator that finds frames in
/// it and the clock that says when each frame was received. The dongle and the replay both
/// go through it, so a recording is handled exactly like live samples.
///
/// Not thread-safe: one instance per stream, fed from the thread that demodulates.
public final class SampleStream {
    /// The demodulator (its statistics are the stream's).
    public let demodulator: StreamingDemodulator
    /// The stream's clock.
    public private(set) var clock: SampleClock
    /// Frames handed to the tracker so far.
    public private(set) var frames = 0
    private let tracker: LiveTracker

    /// A stream of `format` samples at `sampleRate`, demodulated with `options` into `tracker`.
    public init(format: SampleFormat, sampleRate: SampleRate, options: StreamingDemodulator.Options,
                into tracker: LiveTracker) {
        demodulator = StreamingDemodulator(format: format, sampleRate: sampleRate, options: options)
        clock = SampleClock(sampleRate: sampleRate.hertz)
        self.tracker = tracker
    }

    /// Demodulates `block`; after a loss, what came before it is finished first.
    public func process(_ block: IQBlock) {
        if block.droppedSamples > 0 {
            // What came before the gap is timed by the block it came in.
            demodulator.resume(afterDropping: block.droppedSamples) { deliver($0) }
        }
        // Whole samples this block completes, with the bytes of one split across blocks.
        let count = (demodulator.carriedBytes + block.bytes.count) / demodulator.format.bytesPerSample
        clock.advance(count: count, arrival: block.arrival, dropped: block.droppedSamples)
        demodulator.process(block.bytes) { deliver($0) }
    }

    /// Ends the stream; returns the bytes of an incomplete final sample (0 when whole).
    @discardableResult
    public func finish() -> Int {
        demodulator.finish { deliver($0) }
    }

    private func deliver(_ frame: Frame) {
        frames += 1
        tracker.accept(frame, at: clock.time(ofTimestamp: frame.timestamp))
    }
}
