/// Turns the samples of a candidate reply into 56 or 112 bits, at one sub-sample phase.
///
/// Each bit is the sign of its matched-filter score (see `ReplyKernels`). The first five
/// bits are the downlink format, which fixes the length; formats that no transponder sends
/// (or that the validator cannot check) end the attempt after five bits, which is what
/// keeps the cost of noise candidates low.
///
/// With `feedback`, each decision also corrects the next bit for the smearing a late (or
/// band-limited) pulse causes: after a 1 (pulse then gap) the next bit's first sample lost
/// energy to the gap, so it is weighted 5/4; after a 0 (gap then pulse) the pulse leaks
/// into the next bit's first sample, so it is weighted 4/5 (13/16). This decision feedback
/// rescues replies whose pulses are smeared, at the price of propagating an error; the
/// demodulator only tries it when the plain decisions fail the CRC.
///
/// A class only to own its copy of the kernels in raw memory, read without bounds checks
/// or reference counting in the hot path.
final class BitSlicer {
    private let kernels: UnsafeMutablePointer<ReplyKernels.BitKernel>
    private let kernelCount: Int

    /// Downlink formats worth demodulating: the ones `FrameValidator` can check.
    private static let acceptedFormats: UInt32 = {
        var mask: UInt32 = 0
        for df in [0, 4, 5, 11, 16, 17, 18, 20, 21] { mask |= 1 << UInt32(df) }
        return mask
    }()

    init(kernels source: ReplyKernels) {
        kernelCount = source.bitKernels.count
        kernels = .allocate(capacity: kernelCount)
        _ = UnsafeMutableBufferPointer(start: kernels, count: kernelCount).initialize(from: source.bitKernels)
    }

    deinit { kernels.deallocate() }

    /// Slices the candidate starting at `samples` with phase `phase`; nil when its downlink
    /// format is not one a transponder sends.
    @inline(__always)
    func slice(_ samples: UnsafePointer<UInt16>, phase: Int, feedback: Bool) -> ModeSBits? {
        if feedback {
            return slice(samples, phase: phase, feedback: true, confidence: nil)
        }
        return slice(samples, phase: phase, feedback: false, confidence: nil)
    }

    /// Slices again and writes the absolute score of every bit to `confidence`: how sure
    /// each decision was, which the `RepairGate` needs. Only called for the rare candidates
    /// whose syndrome points at a repair.
    func confidence(_ samples: UnsafePointer<UInt16>, phase: Int, feedback: Bool,
                    into confidence: UnsafeMutablePointer<Int32>) {
        _ = slice(samples, phase: phase, feedback: feedback, confidence: confidence)
    }

    @inline(__always)
    private func slice(_ samples: UnsafePointer<UInt16>, phase: Int, feedback: Bool,
                       confidence: UnsafeMutablePointer<Int32>?) -> ModeSBits? {
        let table = UnsafePointer(kernels + phase * ReplyKernels.maximumBits)
        // Weight of the next bit's first sample, in sixteenths (feedback only).
        var firstWeight: Int32 = 16

        @inline(__always)
        func decide(_ bit: Int) -> UInt64 {
            let kernel = table[bit]
            let s = samples + Int(kernel.offset)
            var score = kernel.w1 &* Int32(s[1]) &+ kernel.w2 &* Int32(s[2]) &+ kernel.w3 &* Int32(s[3])
            if feedback {
                score = (firstWeight &* kernel.w0 &* Int32(s[0]) &+ 16 &* score) >> 4
                firstWeight = score > 0 ? 20 : 13
            } else {
                score &+= kernel.w0 &* Int32(s[0])
            }
            if let confidence { confidence[bit] = score < 0 ? 0 &- score : score }
            return score > 0 ? 1 : 0
        }

        var word: UInt64 = 0
        for bit in 0..<5 { word = (word << 1) | decide(bit) }
        let df = UInt32(truncatingIfNeeded: word)
        guard Self.acceptedFormats & (1 << df) != 0 else { return nil }
        let bitCount = df >= 16 ? 112 : 56
        for bit in 5..<min(bitCount, 64) { word = (word << 1) | decide(bit) }
        var bits = ModeSBits(bitCount: bitCount)
        if bitCount == 56 {
            word <<= 8
            for index in 0..<7 { bits.setByte(index, UInt8(truncatingIfNeeded: word >> UInt64(56 - 8 * index))) }
        } else {
            for index in 0..<8 { bits.setByte(index, UInt8(truncatingIfNeeded: word >> UInt64(56 - 8 * index))) }
            var tail: UInt64 = 0
            for bit in 64..<112 { tail = (tail << 1) | decide(bit) }
            tail <<= 16
            for index in 0..<6 { bits.setByte(8 + index, UInt8(truncatingIfNeeded: tail >> UInt64(56 - 8 * index))) }
        }
        return bits
    }
}
