import IQ
import ModeS

/// Decides all the bits of a candidate reply at once, as the most likely bit sequence
/// (a two-state Viterbi search), instead of one bit at a time.
///
/// A sample integrates the signal over its period, so where it straddles a chip edge it
/// holds part of two chips, and those may belong to two bits. At 2.0 MS/s a chip lasts
/// exactly one sample: a reply half a sample off puts every sample across two chips, and a
/// bit's own samples then cannot tell its value apart from its neighbour's (a 1 after a 0
/// and a 0 after a 1 look alike in the middle sample). Each sample depends on at most two
/// neighbouring bits, though, so the sequence that best explains every sample can be found
/// exactly with two states (the value of the previous bit). Decision feedback
/// (`BitSlicer`) commits to each bit before seeing the next one's samples; this does not.
///
/// The model of a sample is `floor + level × envelope`, with the envelope its share of "on"
/// chips (the rectangular-chip model of `ReplyKernels`) and `level` the preamble's pulse
/// amplitude above the noise floor; the cost of a hypothesis is the squared difference.
///
/// A class only to own its tables and scratch memory; one per demodulator.
final class SequenceSlicer {
    /// One sample's part in the cost of a bit: which sample, and its expected envelope for
    /// each (previous bit, bit) pair, indexed `2 × previous + bit`.
    struct Term {
        var sample: Int32
        var envelope: SIMD4<Float>
    }

    /// Terms of every (phase, bit), one run per bit.
    private let terms: [Term]
    /// Start of the run of (phase, bit) in `terms`; `maximumBits + 1` entries per phase.
    private let runs: [Int]
    /// The choice of previous bit behind each state, per bit (0 or 1 for state 0 and 1).
    private let choices: UnsafeMutablePointer<(UInt8, UInt8)>

    init(kernels: ReplyKernels) {
        let bitsPerReply = ReplyKernels.maximumBits
        let chip = kernels.sampleRate.tenthsPerChip
        var terms = [Term]()
        var runs = [Int]()
        for origin in kernels.phaseOffsets {
            // Tenths of chip `index`, counted from the candidate's first sample.
            func chipStart(_ index: Int) -> Int { origin + index * chip }
            func overlap(_ sample: Int, _ index: Int) -> Float {
                let start = chipStart(index)
                return Float(max(0, min(10 * sample + 10, start + chip) - max(10 * sample, start))) / 10
            }
            for bit in 0..<bitsPerReply {
                runs.append(terms.count)
                let first = ReplyKernels.preambleChips + 2 * bit
                // The samples that touch this bit's chips but not the next bit's (those
                // are left to the next bit, whose cost sees both).
                for sample in (chipStart(first) / 10)...((chipStart(first + 2) - 1) / 10) {
                    if overlap(sample, first + 2) > 0 { continue }
                    var envelope = SIMD4<Float>(repeating: 0)
                    for previous in 0..<2 {
                        for value in 0..<2 {
                            // The previous bit's second chip carries a pulse for a 0 (the
                            // preamble's last chip, before the first bit, none: previous 1).
                            let before = previous == 0 ? overlap(sample, first - 1) : 0
                            let own = value == 1 ? overlap(sample, first) : overlap(sample, first + 1)
                            envelope[2 * previous + value] = before + own
                        }
                    }
                    terms.append(Term(sample: Int32(sample), envelope: envelope))
                }
            }
            runs.append(terms.count)
        }
        self.terms = terms
        self.runs = runs
        choices = .allocate(capacity: bitsPerReply)
        choices.initialize(repeating: (0, 0), count: bitsPerReply)
    }

    deinit {
        choices.deallocate()
    }

    /// The most likely bits of the candidate at `samples` with phase `phase`, for a reply
    /// `level` above the noise `floor`; nil when its downlink format is not one a
    /// transponder sends (see `BitSlicer`).
    func slice(_ samples: UnsafePointer<UInt16>, phase: Int, level: Float, floor: Float) -> ModeSBits? {
        guard level > 0 else { return nil }
        let base = phase * (ReplyKernels.maximumBits + 1)
        return terms.withUnsafeBufferPointer { terms in
            runs.withUnsafeBufferPointer { runs in
                // Cost of the best sequence ending in a 0 and in a 1 so far. Before the first
                // bit, the "previous bit" is the preamble's quiet last chip, which state 1
                // (no pulse in its second chip) stands for.
                var cost = (Float.infinity, Float(0))
                func advance(through bit: Int) {
                    var pair = SIMD4<Float>(repeating: 0)
                    for index in runs[base + bit]..<runs[base + bit + 1] {
                        let term = terms[index]
                        let observed = Float(samples[Int(term.sample)]) - floor
                        let error = SIMD4<Float>(repeating: observed) - level * term.envelope
                        pair += error * error
                    }
                    // pair: (0→0, 0→1, 1→0, 1→1).
                    let to0 = (cost.0 + pair[0], cost.1 + pair[2])
                    let to1 = (cost.0 + pair[1], cost.1 + pair[3])
                    choices[bit] = (to0.0 <= to0.1 ? 0 : 1, to1.0 <= to1.1 ? 0 : 1)
                    cost = (min(to0.0, to0.1), min(to1.0, to1.1))
                }
                // The best path's first `decided` bits, in a message of `bitCount` bits.
                func traceBack(decided: Int, bitCount: Int) -> ModeSBits {
                    var bits = ModeSBits(bitCount: bitCount)
                    var state = cost.0 <= cost.1 ? 0 : 1
                    for bit in stride(from: decided - 1, through: 0, by: -1) {
                        if state == 1 { bits.flipBit(bit + 1) }
                        state = Int(state == 0 ? choices[bit].0 : choices[bit].1)
                    }
                    return bits
                }
                // Noise mostly ends here: the format the best path so far starts with is
                // not one a transponder sends.
                for bit in 0..<5 { advance(through: bit) }
                guard BitSlicer.isAccepted(format: traceBack(decided: 5, bitCount: 56).downlinkFormat) else {
                    return nil
                }
                for bit in 5..<56 { advance(through: bit) }
                let short = traceBack(decided: 56, bitCount: 56)
                guard BitSlicer.isAccepted(format: short.downlinkFormat) else { return nil }
                if short.downlinkFormat < 16 { return short }
                for bit in 56..<ReplyKernels.maximumBits { advance(through: bit) }
                let long = traceBack(decided: 112, bitCount: 112)
                // The rest of the message may move the best path's first bits too.
                return long.downlinkFormat >= 16 ? long : nil
            }
        }
    }
}
