import FoundationEssentials
import IQ
import Logging
import ModeS
import ModeSDemod
import Pipeline
import Support
import Synchronization

/// Replays an IQ recording (a file, or standard input for "-") through the same demodulator
/// and tracker as a live dongle: as fast as possible, at the recording's own pace, or at a
/// speed; once or in a loop.
///
/// As fast as possible and at the recording's pace (`throttle`), one thread reads and
/// demodulates, and nothing is lost: a demodulator slower than real time only makes the
/// replay late, so a demonstration or a test gives the same frames on any computer. At a
/// `speed` the samples take the dongle's path instead: this thread delivers each block when
/// it is due into a `SampleRing`, which a second thread demodulates, and a block that finds
/// the ring full is dropped and counted. So a recording at N times real time shows what a
/// computer N times slower would do with a live dongle: the demodulator has 1/N of the
/// processor time per second of air.
package struct ReplaySource: Source {
    /// What to replay and how.
    package struct Configuration: Sendable {
        /// The recording, or "-" for standard input.
        package var path: String
        /// How its samples are laid out.
        package var format: SampleFormat
        /// Its sample rate.
        package var sampleRate: SampleRate
        /// Deliver at the recording's own pace, nothing dropped.
        package var throttle = false
        /// Deliver this many times faster than real time through the dongle's ring and
        /// thread, dropping what the demodulator cannot keep up with; nil: as fast as possible
        /// (or at `throttle`'s pace), nothing dropped.
        package var speed: Double?
        /// Start again at the end (not possible for standard input).
        package var loop = false
        /// How the samples are demodulated.
        package var demodulator = StreamingDemodulator.Options()

        /// A configuration replaying `path` once, as fast as possible.
        package init(path: String, format: SampleFormat, sampleRate: SampleRate) {
            self.path = path
            self.format = format
            self.sampleRate = sampleRate
        }
    }

    /// The replay's settings.
    package let configuration: Configuration
    private let logger: Logger

    /// Sample bytes a paced replay dropped because demodulation fell behind, over all passes.
    package var droppedBytes: Int { dropped.bytes }
    private let dropped = RingDrops()

    /// "replay", the radar's source name while a recording feeds it.
    package let name = "replay"

    /// A replay source.
    package init(configuration: Configuration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
    }

    /// Replays until the end of the recording (or forever with `loop`), or until the task is
    /// cancelled. Throws `IQFileReader.ReadError` when the recording cannot be read.
    package func run(into sink: any FrameSink) async throws {
        let cancelled = Mutex(false)
        let configuration = self.configuration
        let logger = self.logger
        let label = self.label
        let drops = dropped
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
                DedicatedThread.start(name: "replay") {
                    do {
                        try Self.replay(configuration, into: sink, label: label, drops: drops, logger: logger) {
                            cancelled.withLock { $0 }
                        }
                        continuation.resume()
                    } catch is CancellationError {
                        continuation.resume()
                    } catch {
                        continuation.resume(throwing: error)
                    }
                }
            }
        } onCancel: {
            cancelled.withLock { $0 = true }
        }
    }

    /// The fastest pace: beyond it the reader itself, not the demodulator, sets the pace.
    package static let maximumSpeed = 64.0

    /// The replay loop, on its own thread. The first pass is logged at info, later passes of
    /// a loop at debug: a short recording loops thousands of times a day.
    private static func replay(
        _ configuration: Configuration, into sink: any FrameSink, label: String, drops: RingDrops, logger: Logger,
        isCancelled: () -> Bool
    ) throws {
        let bytesPerSecond = Double(configuration.sampleRate.hertz * configuration.format.bytesPerSample)
        var pass = 0
        // The stream of the pass before: its level and governor carry on into the next.
        var previous: SampleStream?
        repeat {
            pass += 1
            let reader = try IQFileReader(path: configuration.path)
            let stream = SampleStream(
                format: configuration.format, sampleRate: configuration.sampleRate,
                options: configuration.demodulator, into: sink, label: label)
            stream.logLevelChanges(to: logger, announce: pass == 1)
            if let previous { stream.continueGoverning(after: previous) }
            // Only one pass's demodulator is kept at a time.
            previous = nil
            defer { previous = stream }
            let summary: IQFileReader.Summary
            let leftover: Int
            if let speed = configuration.speed {
                (summary, leftover) = try paced(
                    reader, into: stream, bytesPerSecond: bytesPerSecond * speed, format: configuration.format,
                    drops: drops, isCancelled: isCancelled)
            } else {
                var pace = Pace(bytesPerSecond: bytesPerSecond)
                summary = try reader.forEachBlock(isCancelled: isCancelled) { block in
                    if configuration.throttle { try pace.wait(for: block.count, isCancelled: isCancelled) }
                    stream.process(IQBlock(bytes: block, arrival: Date().timeIntervalSince1970))
                }
                leftover = stream.finish()
            }
            guard summary.bytes >= configuration.format.bytesPerSample else {
                throw IQFileReader.ReadError(
                    description: "\(configuration.path) holds no whole sample (\(summary.bytes) bytes)")
            }
            if leftover > 0 && pass == 1 {
                logger.warning("\(configuration.path): ignored a truncated final sample (\(leftover) bytes)")
            }
            let seconds = Double(summary.bytes) / bytesPerSecond
            logger.log(
                level: pass == 1 ? .info : .debug,
                "replay of \(configuration.path) (pass \(pass)): \(stream.frames) frames in \(DecimalText.fixed(seconds, places: 1)) s of samples"
            )
        } while configuration.loop && configuration.path != "-" && !isCancelled()
    }

    /// One pass at `bytesPerSecond`: each block goes into a ring when its last byte is due,
    /// and a thread of its own demodulates from the ring, as from a dongle. Returns what was
    /// read and the bytes of an incomplete final sample.
    private static func paced(
        _ reader: IQFileReader, into stream: SampleStream, bytesPerSecond: Double, format: SampleFormat,
        drops: RingDrops, isCancelled: () -> Bool
    ) throws -> (IQFileReader.Summary, Int) {
        let ring = SampleRing(bytesPerSample: format.bytesPerSample)
        drops.begin(ring)
        defer { drops.end() }
        let finished = ThreadCondition()
        let leftover = Mutex<Int?>(nil)
        // Handed to the demodulating thread; this one reads it again only once that has finished.
        nonisolated(unsafe) let stream = stream
        DedicatedThread.start(name: "demodulator") {
            let remaining = stream.drain(ring) { nil }
            finished.withLock { leftover.withLock { $0 = remaining } }
            finished.broadcast()
        }
        /// Closes the ring and waits until the demodulator has drained it.
        func demodulated() -> Int {
            ring.close()
            finished.lock()
            defer { finished.unlock() }
            while true {
                if let remaining = leftover.withLock({ $0 }) { return remaining }
                finished.wait()
            }
        }
        var pace = Pace(bytesPerSecond: bytesPerSecond)
        let summary: IQFileReader.Summary
        do {
            summary = try reader.forEachBlock(isCancelled: isCancelled) { block in
                try pace.wait(for: block.count, isCancelled: isCancelled)
                ring.push(block)
            }
        } catch {
            _ = demodulated()
            throw error
        }
        return (summary, demodulated())
    }
}

/// Delivers a recording's bytes at a pace: a block is due when its last sample would have been
/// received live (at `bytesPerSecond`, counted from when the first block was read).
///
/// The clock starts at the first block, not when the replay opens its input: standard input
/// may be a pipe whose writer starts later, and a clock started before it would see every
/// block overdue and hand a whole stretch of samples to the ring at once, which a dongle never
/// does.
private struct Pace {
    let bytesPerSecond: Double
    var start: Double?
    var delivered = 0

    init(bytesPerSecond: Double) { self.bytesPerSecond = bytesPerSecond }

    /// Waits until the next `count` bytes are due; throws `CancellationError` once cancelled.
    mutating func wait(for count: Int, isCancelled: () -> Bool) throws {
        let now = Date().timeIntervalSince1970
        let start = self.start ?? now
        self.start = start
        delivered += count
        let wait = start + Double(delivered) / bytesPerSecond - now
        if wait > 0 { DedicatedThread.sleep(seconds: wait) }
        if isCancelled() { throw CancellationError() }
    }
}
