import IQ
import ModeS

/// Precomputed correlation weights that turn sample magnitudes into preamble and bit
/// scores, for every sub-sample phase a reply can start at.
///
/// The model: a reply is a sequence of 0.5 µs chips, each either "on" (pulse) or "off", and
/// each sample integrates the signal over its own sample period. A sample's share of a chip
/// is therefore the overlap of the two time intervals. Scoring a bit is then a matched
/// filter: sum the magnitudes weighted by their overlap with the first chip, minus those
/// weighted by their overlap with the second chip; a positive score means a pulse in the
/// first half, i.e. a 1. This is what makes bit decisions phase-aware at 2.4 MS/s, where a
/// sample often straddles two chips: the straddling sample counts only for its share.
///
/// All times are in tenths of a sample, so every overlap, hence every weight, is a small
/// integer and scoring is pure integer arithmetic.
package struct ReplyKernels: Sendable {
    /// Weights of one bit: the scores starts at sample `offset` (relative to the candidate's
    /// first sample) and spans at most four samples.
    package struct BitKernel: Sendable {
        /// First sample, relative to the candidate start.
        package var offset: Int32
        /// Weight of samples offset, offset+1, offset+2, offset+3.
        package var w0: Int32, w1: Int32, w2: Int32, w3: Int32
    }

    /// How much the neighbouring chips leak into one bit's score, for the decision-feedback
    /// slicer: each is Σ weight × overlap (tenths²) over the bit's samples.
    package struct Interference: Sendable {
        /// Leak of the chip just before the bit (the previous bit's second chip).
        package var previous: Int32
        /// Leak of the chip just after the bit (the next bit's first chip).
        package var next: Int32
        /// Σ weight × (overlap with the bit's own two chips): nonzero when the samples
        /// cover the two chips unevenly.
        package var own: Int32
    }

    /// Chips in the preamble (8 µs).
    package static let preambleChips = 16
    /// Preamble chips that carry a pulse: pulses start at 0, 1.0, 3.5 and 4.5 µs.
    package static let preamblePulseChips: Set<Int> = [0, 2, 7, 9]
    /// Bits in a long reply; a short one uses the first 56 of them.
    package static let maximumBits = 112
    /// Weight of an "on" preamble chip relative to an "off" one. 4 on chips against 12 off
    /// chips: weighting the on chips 3 times makes the weights sum to zero, so the score is
    /// insensitive to the noise floor and equals 12 chip-lengths × (mean on − mean off).
    static let preambleOnWeight: Int32 = 3

    /// The sample rate the kernels were built for.
    package let sampleRate: SampleRate
    /// Sub-sample start offsets in tenths of a sample, one per phase.
    package let phaseOffsets: [Int]
    /// Samples the preamble kernels span (the same for all phases).
    package let preambleSpan: Int
    /// Samples from a candidate start to the last sample a long reply can touch.
    package let replySpan: Int
    /// The same for a short (56-bit) reply.
    package let shortReplySpan: Int

    /// Samples a reply of `bitCount` bits may touch from its candidate start.
    package func span(bitCount: Int) -> Int { bitCount == 112 ? replySpan : shortReplySpan }
    /// The first sample, from a candidate start, that bit `number` (1-based) can touch.
    package func firstSample(ofBit number: Int) -> Int {
        (Self.preambleChips + 2 * (number - 1)) * sampleRate.tenthsPerChip / 10
    }
    /// Per phase, `preambleSpan` weights: +3 × overlap with on chips, −1 × overlap with off.
    let preambleWeights: [Int32]
    /// Per phase, `preambleSpan` weights: the overlap with on chips only (for the level).
    let pulseWeights: [Int32]
    /// Per phase, `maximumBits` bit kernels.
    let bitKernels: [BitKernel]
    /// Per phase, `maximumBits` interference terms matching `bitKernels`.
    let bitInterference: [Interference]
    /// Per phase, one kernel per quiet preamble chip (12 of them): its overlap with each
    /// sample, to measure how quiet that chip really is.
    let quietChipKernels: [BitKernel]
    /// Per phase, one kernel per preamble pulse chip (chips 0, 2, 7 and 9), the same way.
    let pulseChipKernels: [BitKernel]
    /// The preamble score of a reply whose on-chips are one magnitude unit above its off
    /// chips: divide a score by this to get (mean on − mean off) in magnitude units.
    package let preambleScale: Int32
    /// Same for a bit score: |score| / bitScale is the on/off magnitude difference.
    package let bitScale: Int32

    /// Builds the kernels for `sampleRate`.
    package init(sampleRate: SampleRate) {
        self.sampleRate = sampleRate
        let chip = sampleRate.tenthsPerChip
        let phases = sampleRate.phaseOffsetsInTenths
        self.phaseOffsets = phases
        let latest = phases.max() ?? 0
        let preambleEnd = latest + Self.preambleChips * chip
        self.preambleSpan = (preambleEnd + 9) / 10
        let replyEnd = latest + (Self.preambleChips + 2 * Self.maximumBits) * chip
        self.replySpan = (replyEnd + 9) / 10 + 1
        let shortEnd = latest + (Self.preambleChips + Self.maximumBits) * chip
        self.shortReplySpan = (shortEnd + 9) / 10 + 1

        var preamble = [Int32]()
        var pulses = [Int32]()
        var bits = [BitKernel]()
        var interference = [Interference]()
        var quiet = [BitKernel]()
        var pulseChips = [BitKernel]()
        for phase in phases {
            let chips = Self.preambleChipKernels(phase: phase, chip: chip)
            pulseChips += chips.pulse
            quiet += chips.quiet
            let weights = Self.preambleWeights(phase: phase, chip: chip, span: preambleSpan)
            preamble += weights.preamble
            pulses += weights.pulse
            let data = Self.bitKernels(phase: phase, chip: chip)
            bits += data.kernels
            interference += data.interference
        }
        self.preambleWeights = preamble
        self.pulseWeights = pulses
        self.bitKernels = bits
        self.bitInterference = interference
        self.quietChipKernels = quiet
        self.pulseChipKernels = pulseChips
        self.preambleScale = Self.preambleOnWeight * 4 * Int32(chip)
        self.bitScale = Int32(chip)
    }

    /// Overlap in tenths between sample `index` and the interval [start, end) in tenths.
    private static func overlap(_ index: Int, _ start: Int, _ end: Int) -> Int32 {
        Int32(max(0, min(10 * index + 10, end) - max(10 * index, start)))
    }

    /// The kernels of the preamble's chips at `phase` (chips `chip` tenths long): one per
    /// pulse chip and one per quiet chip, in chip order, each its overlap with the samples.
    private static func preambleChipKernels(phase: Int, chip: Int) -> (pulse: [BitKernel], quiet: [BitKernel]) {
        var pulse = [BitKernel]()
        var quiet = [BitKernel]()
        for chipIndex in 0..<preambleChips {
            let start = phase + chipIndex * chip
            let first = start / 10
            var weights: [Int32] = [0, 0, 0, 0]
            for k in 0..<4 { weights[k] = overlap(first + k, start, start + chip) }
            let kernel = BitKernel(
                offset: Int32(first), w0: weights[0], w1: weights[1],
                w2: weights[2], w3: weights[3])
            if preamblePulseChips.contains(chipIndex) {
                pulse.append(kernel)
            } else {
                quiet.append(kernel)
            }
        }
        return (pulse, quiet)
    }

    /// The preamble's weights at `phase` over its `span` samples: the score's (+3 × overlap
    /// with on chips, −1 × overlap with off ones) and the pulse level's (on chips only).
    private static func preambleWeights(phase: Int, chip: Int, span: Int) -> (preamble: [Int32], pulse: [Int32]) {
        var preamble = [Int32]()
        var pulses = [Int32]()
        for sample in 0..<span {
            var weight: Int32 = 0
            var pulse: Int32 = 0
            for chipIndex in 0..<preambleChips {
                let start = phase + chipIndex * chip
                let share = overlap(sample, start, start + chip)
                if preamblePulseChips.contains(chipIndex) {
                    weight += preambleOnWeight * share
                    pulse += share
                } else {
                    weight -= share
                }
            }
            preamble.append(weight)
            pulses.append(pulse)
        }
        return (preamble, pulses)
    }

    /// The kernel of every bit at `phase` (first chip's overlap less the second's), with
    /// how much the neighbouring chips leak into it.
    private static func bitKernels(phase: Int, chip: Int) -> (kernels: [BitKernel], interference: [Interference]) {
        var bits = [BitKernel]()
        var interference = [Interference]()
        for bit in 0..<maximumBits {
            let firstStart = phase + (preambleChips + 2 * bit) * chip
            let secondStart = firstStart + chip
            let first = firstStart / 10
            var weights: [Int32] = [0, 0, 0, 0]
            for k in 0..<4 {
                let sample = first + k
                weights[k] =
                    overlap(sample, firstStart, secondStart)
                    - overlap(sample, secondStart, secondStart + chip)
            }
            bits.append(
                BitKernel(
                    offset: Int32(first), w0: weights[0], w1: weights[1],
                    w2: weights[2], w3: weights[3]))
            var leak = Interference(previous: 0, next: 0, own: 0)
            for k in 0..<4 {
                let sample = first + k
                leak.previous += weights[k] * overlap(sample, firstStart - chip, firstStart)
                leak.next += weights[k] * overlap(sample, secondStart + chip, secondStart + 2 * chip)
                leak.own +=
                    weights[k]
                    * (overlap(sample, firstStart, secondStart)
                        + overlap(sample, secondStart, secondStart + chip))
            }
            interference.append(leak)
        }
        return (bits, interference)
    }
}
