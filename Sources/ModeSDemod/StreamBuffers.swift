import IQ

/// The stretch of the stream the demodulator still needs: its magnitudes and, index for
/// index, its raw samples, which cancellation and the channel fit read, in two buffers
/// allocated once.
///
/// The stream slides through them: samples are converted in at the end, and each search
/// moves the unexamined tail, with the lookback before it, to the front. A candidate start
/// is examined only once `lookahead` samples follow it, so a reply straddling two blocks of
/// input is read exactly as if the stream had come in one piece; `lookback` samples stay
/// before the next start, so a reply buried by a later frame can still be recovered.
///
/// A class only to own the buffers' memory; one per demodulator.
final class StreamBuffers {
    /// Samples converted per pass; the buffers hold this plus the kept tail.
    static let chunkSamples = 1 << 16
    /// Bytes of one raw sample.
    let bytesPerSample: Int
    /// Magnitudes (and raw samples) the buffers hold.
    let capacity: Int
    /// Samples kept before the next candidate start: a reply that began up to one long
    /// reply before a frame and was buried by it can still be recovered (`ReplyCanceller`).
    let lookback: Int
    /// Samples that must follow a candidate start before it is examined: its own reply
    /// span, plus one more for a reply that starts inside it and runs past its end.
    let lookahead: Int
    /// The stream's magnitudes from `start` on.
    let magnitudes: UnsafeMutablePointer<UInt16>
    /// The raw samples behind `magnitudes`, index for index.
    let raw: UnsafeMutableRawPointer
    /// Stream position of `magnitudes[0]`.
    var start = 0
    /// Valid magnitudes in the buffer.
    var filled = 0

    /// Buffers for samples of `format`, for replies that span `replySpan` samples at most.
    /// The kept tail is at most the lookback, one noise window (positions waiting for their
    /// floor) and the lookahead; padding of the lookahead lets the last positions be read
    /// past the end of the stream without checks.
    init(format: SampleFormat, replySpan: Int) {
        bytesPerSample = format.bytesPerSample
        lookback = replySpan
        lookahead = 2 * replySpan
        capacity = Self.chunkSamples + NoiseFloorEstimator.windowLength + lookback + 2 * lookahead
        magnitudes = .allocate(capacity: capacity)
        magnitudes.initialize(repeating: 0, count: capacity)
        raw = .allocate(byteCount: capacity * format.bytesPerSample, alignment: 8)
        raw.initializeMemory(as: UInt8.self, repeating: 0, count: capacity * format.bytesPerSample)
    }

    deinit {
        magnitudes.deallocate()
        raw.deallocate()
    }

    /// The stream position one past the last sample held.
    var end: Int { start + filled }

    /// The raw samples from stream position `position` on.
    @inline(__always)
    func raw(at position: Int) -> UnsafeMutableRawPointer {
        raw + (position - start) * bytesPerSample
    }

    /// Pads the buffers after the last sample with `lookahead` samples of silence (`zero`,
    /// the byte of a raw sample at rest), which later samples may replace: the last
    /// positions are then read like any other.
    func padWithSilence(zero: UInt8) {
        (magnitudes + filled).update(repeating: 0, count: lookahead)
        (raw + filled * bytesPerSample).initializeMemory(
            as: UInt8.self, repeating: zero, count: lookahead * bytesPerSample)
    }

    /// Keeps the samples from stream position `position` (within the buffers) on, moved to
    /// the front; the raw samples too when `keepingRaw`.
    func keep(from position: Int, keepingRaw: Bool) {
        let kept = end - position
        if position > start, kept > 0 {
            magnitudes.update(from: magnitudes + (position - start), count: kept)
            if keepingRaw {
                raw.copyMemory(from: raw + (position - start) * bytesPerSample, byteCount: kept * bytesPerSample)
            }
        }
        start = position
        filled = kept
    }
}
