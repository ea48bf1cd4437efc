import ModeS

/// The payload of `aviator/NAME/beast`: the frames a receiver accepted over a short interval,
/// in Beast binary, behind a small header that lets a subscriber count what it missed.
///
/// | bytes | content |
/// | --- | --- |
/// | 1 | format version: 1 |
/// | 4 | batch sequence number, big-endian, one more for each batch (wrapping) |
/// | 4 | frames the receiver published in earlier batches, big-endian (wrapping) |
/// | rest | Beast records (`BeastEncoder`): 0x1A, type '2' or '3', 12 MHz timestamp, signal byte, message, every 0x1A inside doubled |
///
/// A subscriber seeing batch `n` after batch `m` (`n` ≠ `m` + 1) knows `n − m − 1` batches
/// went missing, and from the frame counts exactly how many frames they held.
///
/// Reading is strict: a payload with a byte outside a record, a record cut short, an unknown
/// record type, a Mode A/C record or a wrong version is dropped whole, since a well-behaved
/// receiver never sends one.
package struct BeastBatch: Sendable, Equatable {
    /// The format version written and read.
    package static let version: UInt8 = 1
    /// Header bytes before the records.
    package static let headerSize = 9
    /// The largest payload read: a batch of a quarter second from the busiest receiver is a
    /// few tens of kilobytes, and a publisher splits a larger one.
    package static let maximumPayload = 256 << 10
    /// The most frames a payload can hold: the shortest record (a short frame with nothing
    /// escaped) is 16 bytes.
    package static let maximumFrames = (maximumPayload - headerSize) / 16

    /// The batch's sequence number.
    package var sequence: UInt32
    /// Frames the sender published in earlier batches.
    package var framesBefore: UInt32
    /// The frames, as the Beast records carried them.
    package var frames: [BeastFrameParser.Received]

    /// A batch from its parts.
    package init(sequence: UInt32, framesBefore: UInt32, frames: [BeastFrameParser.Received]) {
        self.sequence = sequence
        self.framesBefore = framesBefore
        self.frames = frames
    }

    /// The header of a batch numbered `sequence` after `framesBefore` frames, to which
    /// `BeastEncoder.append` adds the records.
    package static func header(sequence: UInt32, framesBefore: UInt32) -> [UInt8] {
        var bytes: [UInt8] = [version]
        bytes.reserveCapacity(headerSize)
        for value in [sequence, framesBefore] {
            for shift in stride(from: 24, through: 0, by: -8) {
                bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift)))
            }
        }
        return bytes
    }

    /// Reads a payload; throws when it is oversized or anything in it is out of place.
    package static func decode(_ payload: UnsafeRawBufferPointer) throws(NetworkPayloadError) -> BeastBatch {
        guard payload.count <= maximumPayload else { throw .oversized(payload.count, limit: maximumPayload) }
        guard payload.count >= headerSize else { throw .malformed("a frame batch shorter than its header") }
        guard payload[0] == version else { throw .malformed("a frame batch of format version \(payload[0])") }
        func number(at offset: Int) -> UInt32 {
            (offset..<offset + 4).reduce(UInt32(0)) { $0 << 8 | UInt32(payload[$1]) }
        }
        var parser = BeastFrameParser()
        var frames: [BeastFrameParser.Received] = []
        frames.reserveCapacity((payload.count - headerSize) / 16)
        parser.parse(UnsafeRawBufferPointer(rebasing: payload[headerSize...])) { frames.append($0) }
        guard parser.malformed == 0, parser.strayBytes == 0, parser.modeACSkipped == 0 else {
            throw .malformed("a frame batch with bytes that are no Mode S record")
        }
        guard parser.isBetweenFrames else { throw .malformed("a frame batch that ends inside a record") }
        return BeastBatch(sequence: number(at: 1), framesBefore: number(at: 5), frames: frames)
    }

    /// Reads a payload held in an array.
    package static func decode(_ payload: [UInt8]) throws(NetworkPayloadError) -> BeastBatch {
        let result: Result<BeastBatch, NetworkPayloadError> = payload.withUnsafeBytes { bytes in
            do throws(NetworkPayloadError) { return .success(try decode(bytes)) } catch { return .failure(error) }
        }
        return try result.get()
    }
}
