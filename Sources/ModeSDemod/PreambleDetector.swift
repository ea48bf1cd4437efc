import IQ
import ModeS

/// Scores how well the samples at a candidate start look like a Mode S preamble, at each
/// sub-sample phase, and picks the phases worth demodulating.
///
/// The score of a phase is the correlation with the preamble template of `ReplyKernels`:
/// proportional to (mean magnitude of the four pulse chips − mean of the twelve quiet
/// chips). Noise alone scores around zero whatever its level; a reply scores its pulse
/// amplitude. A phase is kept when that difference exceeds `minimumPulseToFloor` times the
/// noise floor.
struct PreambleDetector {
    /// The best phases of one candidate, strongest first.
    struct Phases {
        /// Phase indices, strongest first; only the first `count` are valid.
        var indices: (Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0)
        /// Scores matching `indices`.
        var scores: (Int32, Int32, Int32, Int32, Int32) = (0, 0, 0, 0, 0)
        /// How many phases passed.
        var count = 0

        @inline(__always)
        func index(_ rank: Int) -> Int {
            switch rank {
            case 0: indices.0
            case 1: indices.1
            case 2: indices.2
            case 3: indices.3
            default: indices.4
            }
        }

        @inline(__always)
        func score(_ rank: Int) -> Int32 {
            switch rank {
            case 0: scores.0
            case 1: scores.1
            case 2: scores.2
            case 3: scores.3
            default: scores.4
            }
        }
    }

    let kernels: ReplyKernels
    /// `kernels.pulseWeights` as float vectors of three 8-lane chunks per phase (spans are
    /// at most 20 samples; the extra lanes weigh 0), for one phase's pulse sum.
    private let pulseVectors: [SIMD8<Float>]
    /// `kernels.preambleWeights` and `pulseWeights` by sample: per sample of the preamble's
    /// span, its weight in each phase's score (lane = phase; the lanes past the last phase
    /// weigh 0), so that `phases` scores all phases at once. Floats hold these integer
    /// products and their sums exactly (none reaches 2²⁴), in any order of summing.
    private let scoreColumns: [SIMD8<Float>]
    private let pulseColumns: [SIMD8<Float>]
    /// Chunks per phase.
    private static let chunks = 3
    /// Per phase, Σ overlap² and Σ overlap of the pulse weights: the denominators of
    /// `pulseAmplitude` and `pulseMean`.
    private let pulseSquares: [Int64]
    private let pulseWeightSums: [Int64]

    init(kernels: ReplyKernels) {
        self.kernels = kernels
        precondition(kernels.preambleSpan <= 8 * Self.chunks)
        func vectors(_ weights: [Int32]) -> [SIMD8<Float>] {
            var result = [SIMD8<Float>]()
            for phase in 0..<kernels.phaseOffsets.count {
                for chunk in 0..<Self.chunks {
                    var vector = SIMD8<Float>(repeating: 0)
                    for lane in 0..<8 where chunk * 8 + lane < kernels.preambleSpan {
                        vector[lane] = Float(weights[phase * kernels.preambleSpan + chunk * 8 + lane])
                    }
                    result.append(vector)
                }
            }
            return result
        }
        pulseVectors = vectors(kernels.pulseWeights)
        precondition(kernels.phaseOffsets.count <= 8)
        func columns(_ weights: [Int32]) -> [SIMD8<Float>] {
            (0..<kernels.preambleSpan).map { sample in
                var column = SIMD8<Float>(repeating: 0)
                for phase in 0..<kernels.phaseOffsets.count {
                    column[phase] = Float(weights[phase * kernels.preambleSpan + sample])
                }
                return column
            }
        }
        scoreColumns = columns(kernels.preambleWeights)
        pulseColumns = columns(kernels.pulseWeights)
        var squares = [Int64]()
        var sums = [Int64]()
        for phase in 0..<kernels.phaseOffsets.count {
            let weights = kernels.pulseWeights[(phase * kernels.preambleSpan)..<((phase + 1) * kernels.preambleSpan)]
            squares.append(weights.reduce(0) { $0 + Int64($1) * Int64($1) })
            sums.append(weights.reduce(0) { $0 + Int64($1) })
        }
        pulseSquares = squares
        pulseWeightSums = sums
    }

    /// The minimum (mean pulse − mean quiet) difference, in sixteenths of the noise floor.
    /// Noise-only preambles have a difference with a standard deviation of about 0.2 floor
    /// at 2.4 MS/s (Rayleigh magnitudes, about 5 pulse and 14 quiet samples), so 0.75
    /// floor is 3.75 standard deviations above chance, while a reply at 3 dB SNR (pulse
    /// amplitude about 1.6 floors above nothing, about 0.9 above the noise mean) clears it
    /// more than half the time and one at 6 dB nearly always. The noise windows that do
    /// clear it fail the CRC and the acceptance rules; `StreamingDemodulator.Options`
    /// sets it (`preambleSixteenths`).
    var minimumPulseToFloorSixteenths: Int32 = 12

    /// How loud the quiet chips may be, above the floor, relative to the pulses (above the
    /// floor), in sixteenths; 16 disables the test. A genuine preamble's quiet chips hold
    /// noise only. Inside another reply, Manchester data puts a pulse in every other chip,
    /// so a window that mimics the four preamble pulses has a third of its quiet chips on:
    /// such windows, abundant in busy traffic, are refused here before any slicing. A reply
    /// starting inside a weaker one still passes when it is at least about 1.5 times as
    /// strong. With 14 quiet samples, noise alone rarely trips a limit of a quarter.
    var maximumQuietToPulseSixteenths: Int32 = 8

    /// How many magnitudes from a start the detector reads at most: `phases` reads the
    /// preamble's span, the pulse sums three chunks of eight.
    static let samplesRead = 24

    /// The phases whose preamble score clears the threshold for noise `floor`, best first.
    @inline(__always)
    func phases(at samples: UnsafePointer<UInt16>, floor: UInt32) -> Phases {
        var result = Phases()
        let threshold = Int32(
            truncatingIfNeeded: (Int64(floor) * Int64(minimumPulseToFloorSixteenths)
                * Int64(kernels.preambleScale)) >> 4)
        let chip = Float(kernels.sampleRate.tenthsPerChip)
        let quiet = Float(maximumQuietToPulseSixteenths)
        let floorValue = Float(floor)
        // Every phase is scored and tested at once, a lane each, and only then are the
        // passing ones ranked: at many starts whether a phase passes is close to a coin
        // toss, and a branch on it per phase was often mispredicted (this also spares the
        // sum across lanes that scoring one phase at a time needs for each).
        var totals = SIMD8<Float>()
        var ons = SIMD8<Float>()
        scoreColumns.withUnsafeBufferPointer { scores in
            pulseColumns.withUnsafeBufferPointer { pulses in
                for sample in 0..<scores.count {
                    let m = SIMD8<Float>(repeating: Float(samples[sample]))
                    totals += scores[sample] * m
                    ons += pulses[sample] * m
                }
            }
        }
        var passes = totals .> Float(threshold)
        if quiet < 16 {
            // onSum over 4 chips, offSum over 12 chips (overlaps in tenths); score = 3·onSum
            // − offSum. Keep the phase when mean(off) − floor ≤ quiet/16 · (mean(on) − floor),
            // i.e. 16·offSum − (16 − quiet)·12·chip·floor ≤ 3·quiet·onSum.
            let offs = 3 * ons - totals
            passes .&= 16 * offs - (16 - quiet) * 12 * chip * floorValue .<= 3 * quiet * ons
        }
        let bits = SIMD8<Int32>(1, 2, 4, 8, 16, 32, 64, 128)
        var passing = UInt32(truncatingIfNeeded: SIMD8<Int32>().replacing(with: bits, where: passes).wrappedSum())
        while passing != 0 {
            let phase = passing.trailingZeroBitCount
            passing &= passing - 1
            result.insert(phase: phase, score: Int32(totals[phase]))
        }
        return result
    }

    /// The amplitude of the preamble's pulses at `phase`: the reply's level, and the scale
    /// for judging its bits.
    ///
    /// A sample only partly covered by a pulse holds only that part of its energy, so the
    /// estimate is the least-squares fit of magnitude = amplitude × overlap over the pulse
    /// samples: Σ overlap·m / Σ overlap².
    func pulseAmplitude(at samples: UnsafePointer<UInt16>, phase: Int) -> Double {
        let squares = pulseSquares.withUnsafeBufferPointer { $0[phase] }
        // Weights are overlaps in tenths of a sample.
        return squares > 0 ? 10 * Double(pulseSum(at: samples, phase: phase)) / Double(squares) : 0
    }

    /// The overlap-weighted mean magnitude over the preamble's pulses at `phase`: lower
    /// than `pulseAmplitude` where samples straddle pulse edges, which makes it the fairer
    /// yardstick for the bit scores (built from the same straddling samples).
    func pulseMean(at samples: UnsafePointer<UInt16>, phase: Int) -> Double {
        let weights = pulseWeightSums.withUnsafeBufferPointer { $0[phase] }
        return weights > 0 ? Double(pulseSum(at: samples, phase: phase)) / Double(weights) : 0
    }

    /// Σ overlap × magnitude over the preamble's pulse samples at `phase`, read like
    /// `phases` reads them. Exact in floats: the overlaps of the four pulse chips add up to
    /// 48 tenths, so no product or partial sum reaches 48 × 65535, far below 2²⁴.
    @inline(__always)
    private func pulseSum(at samples: UnsafePointer<UInt16>, phase: Int) -> Int64 {
        let (m0, m1, m2) = Self.magnitudes(at: samples)
        return pulseVectors.withUnsafeBufferPointer { pulses in
            let p = pulses.baseAddress! + phase * Self.chunks
            return Int64((p[0] * m0 + p[1] * m1 + p[2] * m2).pairwiseSum)
        }
    }

    /// The 24 magnitudes from `samples` as floats, in three chunks (the span plus harmless
    /// padding: the buffer always extends a reply span past any candidate). Converted lane
    /// by lane so that the conversion is always inlined into the vector code around it.
    @inline(__always)
    private static func magnitudes(at samples: UnsafePointer<UInt16>) -> (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>) {
        let raw = UnsafeRawPointer(samples)
        @inline(__always) func chunk(_ index: Int) -> SIMD8<Float> {
            let v = raw.loadUnaligned(fromByteOffset: 16 * index, as: SIMD8<UInt16>.self)
            return SIMD8(
                Float(v[0]), Float(v[1]), Float(v[2]), Float(v[3]),
                Float(v[4]), Float(v[5]), Float(v[6]), Float(v[7]))
        }
        return (chunk(0), chunk(1), chunk(2))
    }
}

extension PreambleDetector {
    /// Whether the preamble at `phase` looks like the inside of another reply rather than a
    /// real preamble.
    ///
    /// Manchester data puts one pulse in every pair of chips, so a window inside a strong
    /// reply, aligned with its data bits, can mimic the four preamble pulses and slice into
    /// a clean-looking 56-bit pattern. Such a window has a pulse in each of the chip pairs
    /// (4, 5), (10, 11), (12, 13) and (14, 15), all of which a genuine preamble leaves
    /// quiet. A pair counts as loud when its louder chip is above the midpoint between the
    /// noise floor and the pulse amplitude; three or four loud pairs mark a data window.
    /// At low SNR noise alone makes a pair loud about a third of the time, so a genuine
    /// reply is refused only rarely (three of four: about 1 in 8 at 3 dB, far less above).
    func looksLikeDataWindow(at samples: UnsafePointer<UInt16>, phase: Int, floor: UInt32) -> Bool {
        let amplitude = pulseMean(at: samples, phase: phase)
        let midpoint = (amplitude + Double(floor)) / 2
        // Indices of chips 4, 5, 10, 11, 12, 13, 14, 15 among the 12 quiet chips
        // (1, 3, 4, 5, 6, 8, 10, 11, 12, 13, 14, 15): pairs (2, 3), (6, 7), (8, 9), (10, 11).
        func loud(_ first: Int) -> Int {
            max(
                chipMean(samples, phase: phase, quietIndex: first),
                chipMean(samples, phase: phase, quietIndex: first + 1)) > midpoint ? 1 : 0
        }
        return loud(2) + loud(6) + loud(8) + loud(10) >= 3
    }

    /// Whether the preamble at `phase` has one strong pair of pulses and a nearly empty
    /// other pair: the first two pulses (0 and 1 µs) or the last two (3.5 and 4.5 µs).
    ///
    /// A strong reply's first two pulses, seen from 3.5 µs earlier, fill that window's last
    /// two, and its own pulse at 3.5 µs falls in one quiet chip: the window scores as a fair
    /// preamble at half the reply's level, and its bits (the real ones, half a bit out of
    /// step) decode to a random parity now and then naming a known address. A genuine
    /// preamble's pairs are equally loud; when the louder pair stands at least 4 floors
    /// above the floor, noise cannot bring the other below a quarter of it.
    func isLopsided(at samples: UnsafePointer<UInt16>, phase: Int, floor: UInt32) -> Bool {
        let pairs = pulsePairs(at: samples, phase: phase, floor: floor)
        return Self.pairsDiffer(strong: pairs.strong, weak: pairs.weak, floor: floor, by: 4)
    }

    /// Whether the preamble's two pairs of pulses (`pulsePairs`: the louder pair's level
    /// above the floor, `strong`, and the quieter's, `weak`) differ by more than noise can
    /// make them: the louder stands at least 4 floors above the floor, and the quieter below
    /// `1 / ratio` of it. `isLopsided` asks a ratio of 4, the uneven-preamble test
    /// (`AcceptancePolicy.preambleTooUneven`) one of 8.
    static func pairsDiffer(strong: Double, weak: Double, floor: UInt32, by ratio: Double) -> Bool {
        strong >= 4 * Double(floor) && weak < strong / ratio
    }

    /// The mean levels above the floor of the preamble's two pairs of pulses at `phase` (at 0
    /// and 1 µs, and at 3.5 and 4.5 µs): the louder pair's and the quieter pair's. A reply
    /// sends all four pulses alike, so only noise or another signal sets them apart.
    func pulsePairs(at samples: UnsafePointer<UInt16>, phase: Int, floor: UInt32) -> (strong: Double, weak: Double) {
        func mean(_ index: Int) -> Double {
            Self.kernelMean(samples, kernels.pulseChipKernels[phase * 4 + index]) - Double(floor)
        }
        let first = (mean(0) + mean(1)) / 2
        let last = (mean(2) + mean(3)) / 2
        return (max(first, last), min(first, last))
    }

    /// The mean magnitude of quiet chip number `quietIndex` (0..<12) at `phase`.
    private func chipMean(_ samples: UnsafePointer<UInt16>, phase: Int, quietIndex: Int) -> Double {
        Self.kernelMean(samples, kernels.quietChipKernels[phase * 12 + quietIndex])
    }

    /// The overlap-weighted mean magnitude under one chip's kernel.
    private static func kernelMean(_ samples: UnsafePointer<UInt16>, _ kernel: ReplyKernels.BitKernel) -> Double {
        let s = samples + Int(kernel.offset)
        let sum =
            Int(kernel.w0) * Int(s[0]) + Int(kernel.w1) * Int(s[1])
            + Int(kernel.w2) * Int(s[2]) + Int(kernel.w3) * Int(s[3])
        let weight = Int(kernel.w0 + kernel.w1 + kernel.w2 + kernel.w3)
        return weight > 0 ? Double(sum) / Double(weight) : 0
    }
}

extension PreambleDetector.Phases {
    /// Inserts a phase keeping the list sorted by descending score.
    @inline(__always)
    mutating func insert(phase: Int, score: Int32) {
        withUnsafeMutableBytes(of: &indices) { indexBytes in
            withUnsafeMutableBytes(of: &scores) { scoreBytes in
                let idx = indexBytes.bindMemory(to: Int.self)
                let sc = scoreBytes.bindMemory(to: Int32.self)
                var position = count
                while position > 0, sc[position - 1] < score {
                    idx[position] = idx[position - 1]
                    sc[position] = sc[position - 1]
                    position -= 1
                }
                idx[position] = phase
                sc[position] = score
            }
        }
        count += 1
    }
}
