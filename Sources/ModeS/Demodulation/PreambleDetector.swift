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

    /// The minimum (mean pulse − mean quiet) difference, in sixteenths of the noise floor.
    /// Noise-only preambles have a difference with a standard deviation of about 0.2 floor
    /// at 2.4 MS/s (Rayleigh magnitudes, about 5 pulse and 14 quiet samples), so 0.75 floor
    /// is about 3.5 standard deviations above chance, while a reply at 3 dB SNR
    /// (pulse amplitude about 1.6 floors) usually clears it.
    var minimumPulseToFloorSixteenths: Int32 = 12

    /// The phases whose preamble score clears the threshold for noise `floor`, best first.
    @inline(__always)
    func phases(at samples: UnsafePointer<UInt16>, floor: UInt32) -> Phases {
        var result = Phases()
        let threshold = Int32(truncatingIfNeeded: (Int64(floor) * Int64(minimumPulseToFloorSixteenths)
            * Int64(kernels.preambleScale)) >> 4)
        let span = kernels.preambleSpan
        kernels.preambleWeights.withUnsafeBufferPointer { weights in
            for phase in 0..<kernels.phaseOffsets.count {
                let w = weights.baseAddress! + phase * span
                var score: Int32 = 0
                for sample in 0..<span {
                    score &+= w[sample] &* Int32(samples[sample])
                }
                if score > threshold { result.insert(phase: phase, score: score) }
            }
        }
        return result
    }

    /// The mean magnitude of the preamble's pulses at `phase`: the reply's amplitude, for
    /// its signal level.
    func pulseAmplitude(at samples: UnsafePointer<UInt16>, phase: Int) -> Double {
        let span = kernels.preambleSpan
        var sum: Int64 = 0
        var weightSum: Int64 = 0
        for sample in 0..<span {
            let weight = Int64(kernels.pulseWeights[phase * span + sample])
            sum += weight * Int64(samples[sample])
            weightSum += weight
        }
        return weightSum > 0 ? Double(sum) / Double(weightSum) : 0
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
