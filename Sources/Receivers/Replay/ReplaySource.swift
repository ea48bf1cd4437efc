import FoundationEssentials
import IQ
import Logging
import ModeS
import ModeSDemod
import Pipeline
import Support
import Synchronization

/// Replays an IQ recording (a file, or standard input for "-") through the same demodulator
/// and tracker as a live dongle: as fast as possible, or at the recording's own pace, once or
/// in a loop.
package struct ReplaySource: Source {
    /// What to replay and how.
    package struct Configuration: Sendable {
        /// The recording, or "-" for standard input.
        package var path: String
        /// How its samples are laid out.
        package var format: SampleFormat
        /// Its sample rate.
        package var sampleRate: SampleRate
        /// Deliver at real-time pace instead of as fast as possible.
        package var throttle = false
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
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
                DedicatedThread.start(name: "replay") {
                    do {
                        try Self.replay(configuration, into: sink, label: label, logger: logger) {
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

    /// The replay loop, on its own thread. The first pass is logged at info, later passes of
    /// a loop at debug: a short recording loops thousands of times a day.
    private static func replay(
        _ configuration: Configuration, into sink: any FrameSink, label: String, logger: Logger,
        isCancelled: () -> Bool
    ) throws {
        let bytesPerSecond = Double(configuration.sampleRate.hertz * configuration.format.bytesPerSample)
        var pass = 0
        repeat {
            pass += 1
            let reader = try IQFileReader(path: configuration.path)
            let stream = SampleStream(
                format: configuration.format, sampleRate: configuration.sampleRate,
                options: configuration.demodulator, into: sink, label: label)
            let passStart = Date().timeIntervalSince1970
            var delivered = 0
            let summary = try reader.forEachBlock(isCancelled: isCancelled) { block in
                delivered += block.count
                if configuration.throttle {
                    // A block is due when its last sample would have been received live.
                    let wait = passStart + Double(delivered) / bytesPerSecond - Date().timeIntervalSince1970
                    if wait > 0 { DedicatedThread.sleep(seconds: wait) }
                    if isCancelled() { throw CancellationError() }
                }
                stream.process(IQBlock(bytes: block, arrival: Date().timeIntervalSince1970))
            }
            let leftover = stream.finish()
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
}
