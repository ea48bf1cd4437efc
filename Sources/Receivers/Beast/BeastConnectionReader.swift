import FoundationEssentials
import ModeS
import NIOCore
import Pipeline
import Synchronization

/// Turns the bytes of one Beast connection into tracked frames: parses them, checks every
/// frame again with a `FrameValidator` (a sender's checks are not taken on trust), and hands
/// the good ones to the pipeline under the source's label, counting as it goes.
///
/// One per connection (the parser keeps a frame split across reads); not thread-safe.
struct BeastConnectionReader {
    private var parser = BeastFrameParser()
    private var validator: FrameValidator
    /// How many of the parser's malformed frames the counters already hold. The counters
    /// are shared by every connection of a source (a listener's run at once), so each
    /// reader adds what its parser found since its last read rather than setting a total.
    private var malformedCounted = 0
    private let label: String

    /// A reader for a new connection of the source labelled `label`, starting from
    /// `validator` (an input that reconnects keeps what it learnt about addresses).
    init(label: String, validator: FrameValidator = FrameValidator()) {
        self.label = label
        self.validator = validator
    }

    /// The validator as it is now, for the next connection.
    var learnt: FrameValidator { validator }

    /// Reads one buffer of the stream into `sink`.
    mutating func read(
        _ buffer: ByteBuffer, into sink: any FrameSink, counting counters: borrowing Mutex<BeastCounters>
    ) {
        var accepted = 0
        var rejected = 0
        var multilaterated = 0
        // The sender's timestamps count its own receiver's samples: they are passed on with
        // the frame (multilateration wants them) but say nothing about when we received it,
        // which is now.
        let arrival = Date().timeIntervalSince1970
        let label = self.label
        buffer.withUnsafeReadableBytes { bytes in
            parser.parse(bytes) { received in
                guard var frame = validator.validate(received.bits, time: arrival) else {
                    rejected += 1
                    return
                }
                frame.timestamp = received.timestamp
                frame.signalLevel = received.signalLevel
                frame.isMultilaterated = received.isMultilaterated
                if frame.isMultilaterated { multilaterated += 1 }
                sink.accept(frame, at: arrival, from: label)
                accepted += 1
            }
        }
        let malformed = parser.malformed - malformedCounted
        malformedCounted = parser.malformed
        counters.withLock {
            $0.accepted += accepted
            $0.rejected += rejected
            $0.multilaterated += multilaterated
            $0.malformed += malformed
        }
    }
}
