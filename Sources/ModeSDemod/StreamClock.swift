import IQ

/// Where the demodulator stands in its stream, and the stream's sample clock.
///
/// Positions count samples from the first one the stream delivered, lost samples included
/// (see `StreamingDemodulator.resume(afterDropping:emit:)`), so that timestamps stay on the
/// receiver's sample clock, which multilateration compares between receivers. Input comes
/// in blocks of any size in bytes, so a block may end within a sample: its bytes wait here
/// for the rest.
struct StreamClock {
    /// 12 MHz timestamp ticks per sample (the Beast convention).
    let ticksPerSample: UInt64
    /// Samples per second.
    let hertz: Int
    /// Stream position of the next candidate start to examine.
    var nextCandidate = 0
    /// Bytes of an incomplete sample carried to the next block.
    var carry: (UInt64, UInt64) = (0, 0)
    /// How many bytes of `carry` are valid.
    var carryCount = 0
    /// Whether the stream has ended (`StreamingDemodulator.finish(emit:)`).
    var finished = false

    /// The clock of a stream at `sampleRate`.
    init(sampleRate: SampleRate) {
        hertz = sampleRate.hertz
        ticksPerSample = UInt64(12_000_000 / sampleRate.hertz)
    }

    /// The 12 MHz timestamp of a reply starting at stream position `position`, refined to
    /// its sub-sample phase `offsetTenths` (tenths of a sample).
    func timestamp(at position: Int, offsetTenths: Int) -> UInt64 {
        UInt64(position) * ticksPerSample + UInt64(offsetTenths) * ticksPerSample / 10
    }

    /// The time of stream position `position` in seconds from the first sample, for the
    /// address filters' expiry and the aircraft's reports.
    func seconds(at position: Int) -> Double {
        Double(position) / Double(hertz)
    }
}
