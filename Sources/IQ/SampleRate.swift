/// The sample rates the demodulator supports, and the timing of a Mode S reply at each.
///
/// A reply is built from 0.5 µs "chips": a 16-chip (8 µs) preamble, then one bit per two
/// chips (pulse in the first chip for a 1, in the second for a 0). At 2.0 MS/s a chip is
/// exactly one sample; at 2.4 MS/s it is 1.2 samples, so chip edges fall between samples
/// and the demodulator must know where inside a sample the reply started (its phase).
package enum SampleRate: Int, Sendable, CaseIterable {
    /// 2.0 MS/s: one sample per chip.
    case twoMega = 2_000_000
    /// 2.4 MS/s (the default): 1.2 samples per chip, resolves the bit phase better.
    case twoPointFourMega = 2_400_000

    /// Samples per second.
    package var hertz: Int { rawValue }

    /// Samples per 0.5 µs chip, in tenths of a sample (10 or 12): every timing quantity
    /// below is kept in tenths so that the demodulator's weights stay small integers.
    package var tenthsPerChip: Int { self == .twoMega ? 10 : 12 }

    /// The sub-sample start offsets (in tenths of a sample) tried for each candidate start.
    /// At 2.4 MS/s chip edges fall on multiples of 0.2 sample, so five offsets cover every
    /// alignment. At 2.0 MS/s a reply is either aligned with the samples or half a sample
    /// off; offsets 0 and 0.5 cover both.
    package var phaseOffsetsInTenths: [Int] { self == .twoMega ? [0, 3, 5, 7] : [0, 2, 4, 6, 8] }

    /// Parses a rate as typed on a command line: `2.4M`, `2.4m`, `2400000`, `2.4`, `2.4e6`,
    /// `2M`, `2000000`, `2`; nil for anything else or an unsupported rate.
    package init?(parsing text: some StringProtocol) {
        var body = Substring(text)
        var scale = 1.0
        if let last = body.last, last == "M" || last == "m" {
            body = body.dropLast()
            scale = 1e6
        } else if let last = body.last, last == "k" || last == "K" {
            body = body.dropLast()
            scale = 1e3
        }
        guard let number = Double(body), number.isFinite, number > 0 else { return nil }
        var hertz = number * scale
        // A bare small number is in mega-samples per second ("2.4").
        if scale == 1, number < 1000 { hertz = number * 1e6 }
        switch Int(hertz.rounded()) {
        case 2_000_000: self = .twoMega
        case 2_400_000: self = .twoPointFourMega
        default: return nil
        }
    }
}
