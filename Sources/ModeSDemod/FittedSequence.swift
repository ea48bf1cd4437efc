import ModeS

/// Decides a reply's bits as the sequence that its fitted channel model (`ChannelTaps`)
/// explains best, in one Viterbi search over the derotated samples.
///
/// At 2.0 MS/s a reply about half a sample off puts every chip into two samples. The sample
/// inside a bit then holds half of each of its chips, whichever the bit is, and only the
/// samples across bit boundaries tell anything: whether the bit changed from the one
/// before. Turning over a run of equal bits changes just the two samples at its ends, so
/// such a run decided wrong costs as little as one wrong bit, and the channel fit's
/// search of single and paired flips cannot turn it back (each flip alone makes one end
/// right and a new one wrong). A search over whole sequences can.
///
/// Each sample depends on the chips that the model's taps reach: the bit the latest of
/// them belongs to and up to three before it. The search keeps four states (the last two
/// bits) and, per state, the best path into it (per-survivor processing): the older bits a
/// sample needs come from that path. Each sample enters the cost at the bit of its latest
/// chip, once every chip it depends on is decided on every path.
///
/// A class only to own its tables and scratch memory; one per channel fit slicer.
final class FittedSequence {
    /// States: the last two bits, `2 × previous + bit`.
    private static let states = 4
    private let envelope: ChipEnvelope
    /// Per phase, `maximumBits + 1` entries: the first sample whose latest chip (through
    /// the model's taps) belongs to each bit, and the end of the table.
    private let runStarts: [Int]
    /// 1 for the preamble's pulse chips, 0 for its quiet ones.
    private let preamble: [Float]
    /// The best path into each state and its cost, twice (this bit's and the last one's).
    private let paths: UnsafeMutablePointer<ModeSBits>
    private let costs: UnsafeMutablePointer<Float>
    /// Per sample of the span being decided: the prediction from what the search does not
    /// change, and eight contributions of the bits it does (see `prepare`).
    private let fixed: UnsafeMutablePointer<SIMD2<Float>>
    private let contributions: UnsafeMutablePointer<SIMD2<Float>>

    /// Tables for the chips of `envelope` (`phases` origins of `length` samples each).
    init(envelope: ChipEnvelope, phases: Int, length: Int) {
        self.envelope = envelope
        let bits = ReplyKernels.maximumBits
        var starts = [Int]()
        for phase in 0..<phases {
            let row = envelope.row(phase)
            // The earliest and latest bits whose chips a sample's taps reach (−1: the
            // preamble only).
            func reachedBits(_ j: Int) -> (earliest: Int, latest: Int) {
                var (earliest, latest) = (Int.max, -1)
                for m in (j - ChannelTaps.postcursors)...(j + ChannelTaps.precursors) where m >= 0 && m < length {
                    for slot in 0..<2 where row.shares[m][slot] > 0 {
                        let chip = Int(row.chips[m]) + slot
                        if chip >= ReplyKernels.preambleChips, chip < ChipEnvelope.chips {
                            let bit = (chip - ReplyKernels.preambleChips) / 2
                            (earliest, latest) = (min(earliest, bit), max(latest, bit))
                        }
                    }
                }
                return (earliest, latest)
            }
            // The search holds the latest bit and three before it (see `prepare`).
            precondition(
                (0..<length).allSatisfy { reachedBits($0).latest - reachedBits($0).earliest <= 3 },
                "the taps reach more bits than the search holds")
            var sample = 0
            for bit in 0..<bits {
                // Latest bits only grow from sample to sample.
                while sample < length, reachedBits(sample).latest < bit { sample += 1 }
                starts.append(sample)
            }
            starts.append(length)
        }
        runStarts = starts
        preamble = (0..<ReplyKernels.preambleChips).map { ReplyKernels.preamblePulseChips.contains($0) ? 1 : 0 }
        paths = .allocate(capacity: 2 * Self.states)
        paths.initialize(repeating: ModeSBits(bitCount: 56), count: 2 * Self.states)
        costs = .allocate(capacity: 2 * Self.states)
        costs.initialize(repeating: 0, count: 2 * Self.states)
        fixed = .allocate(capacity: length)
        fixed.initialize(repeating: SIMD2(repeating: 0), count: length)
        contributions = .allocate(capacity: 8 * length)
        contributions.initialize(repeating: SIMD2(repeating: 0), count: 8 * length)
    }

    deinit {
        paths.deallocate()
        costs.deallocate()
        fixed.deallocate()
        contributions.deallocate()
    }

    /// The `bitCount` bits that `model` explains best over the derotated `samples`
    /// (interleaved I and Q, `span` of them, `clipped` ones left out), for a candidate with
    /// phase `phase`.
    func decide(
        model: ChannelTaps.Model, samples: UnsafePointer<Float>, clipped: UnsafePointer<Bool>, span: Int,
        phase: Int, bitCount: Int
    ) -> ModeSBits {
        let starts = phase * (ReplyKernels.maximumBits + 1)
        prepare(model: model, phase: phase, span: span, bitCount: bitCount)
        let (current, previous) = (paths, paths + Self.states)
        let (cost, lastCost) = (costs, costs + Self.states)
        // Before the first bit there is one path, its "previous bits" 0 (they stand for
        // the preamble, whose chips are in `fixed`, not looked up in the path).
        for state in 0..<Self.states {
            current[state] = ModeSBits(bitCount: bitCount)
            cost[state] = state == 0 ? 0 : .infinity
        }
        for bit in 0..<bitCount {
            previous.update(from: current, count: Self.states)
            lastCost.update(from: cost, count: Self.states)
            // The last bit takes every sample left in the span.
            let first = min(runStarts[starts + bit], span)
            let end = bit == bitCount - 1 ? span : min(runStarts[starts + bit + 1], span)
            for state in 0..<Self.states {
                let (before, value) = (state >> 1, state & 1)
                var best = Float.infinity
                var bestFrom = 0
                for older in 0..<2 {
                    let from = 2 * older + before
                    guard lastCost[from] < .infinity else { continue }
                    // Bit − 3 from the path; bits − 2 ... 0 from the states.
                    let oldest = bit >= 3 ? Int(previous[from].bit(bit - 2)) : 0
                    var total = lastCost[from]
                    for j in first..<end where !clipped[j] {
                        let w = contributions + 8 * j
                        let prediction = fixed[j] + w[oldest] + w[2 + older] + w[4 + before] + w[6 + value]
                        let d = SIMD2(samples[2 * j], samples[2 * j + 1]) - prediction
                        total += (d * d).sum()
                    }
                    if total < best { (best, bestFrom) = (total, from) }
                }
                current[state] = previous[bestFrom]
                current[state].setBit(bit + 1, value == 1)
                cost[state] = best
            }
        }
        var best = 0
        for state in 1..<Self.states where cost[state] < cost[best] { best = state }
        return current[best]
    }

    /// Writes, for each sample of the span, what the model predicts from the chips that do
    /// not depend on the search (`fixed`: the constant, the preamble's pulses) and, per
    /// value of each of the four bits its taps reach (the latest, `runStarts`' bit, and the
    /// three before), what that bit's pulse adds (`contributions`, eight per sample: bit
    /// − 3 is 0, 1, then bit − 2, bit − 1 and the latest bit). The prediction for a path is
    /// then four additions.
    private func prepare(model: ChannelTaps.Model, phase: Int, span: Int, bitCount: Int) {
        let row = envelope.row(phase)
        let starts = phase * (ReplyKernels.maximumBits + 1)
        let constant = SIMD2(model.real[ChannelTaps.taps], model.imaginary[ChannelTaps.taps])
        var latest = -1
        for j in 0..<span {
            while latest + 1 < bitCount, runStarts[starts + latest + 1] <= j { latest += 1 }
            var sum = constant
            let w = contributions + 8 * j
            w.update(repeating: SIMD2(repeating: 0), count: 8)
            for tap in 0..<ChannelTaps.taps {
                let m = j + ChannelTaps.precursors - tap
                guard m >= 0, m < span else { continue }
                let gain = SIMD2(model.real[tap], model.imaginary[tap])
                for slot in 0..<2 {
                    let chip = Int(row.chips[m]) + slot
                    let share = row.shares[m][slot]
                    guard share > 0, chip < ChipEnvelope.chips else { continue }
                    if chip < ReplyKernels.preambleChips {
                        sum += preamble[chip] * share * gain
                        continue
                    }
                    let bit = (chip - ReplyKernels.preambleChips) >> 1
                    guard bit < bitCount else { continue }
                    // A 1 has its pulse in the first chip, a 0 in the second.
                    let value = (chip - ReplyKernels.preambleChips) & 1 == 0 ? 1 : 0
                    // 0 ... 3, checked for every sample when the tables were made.
                    let age = latest - bit
                    w[2 * (3 - age) + value] += share * gain
                }
            }
            fixed[j] = sum
        }
    }
}
