import IQ
import ModeS

/// The signal level of a received reply: the mean power of the samples its data bits occupy,
/// in dB relative to full scale (a magnitude of 1.0, `MagnitudeConverter.fullScale`).
///
/// This is the figure dump1090 and readsb report (and put in the Beast signal byte), so the
/// numbers a user compares between receivers mean the same thing. It is a mean over every
/// sample of the data block, pulses and gaps alike: Manchester coding puts a pulse in half
/// of each bit, so a clean reply reads about 3 dB below its pulse power, and noise in the
/// gaps adds its share. The preamble is left out (its duty cycle differs from the data's).
/// Like theirs, each sample counts at most as full scale (an amplitude of 1.0, though the
/// magnitudes go on to √2): a reply at the rails reads 0 dBFS at most, as on every other
/// receiver, rather than up to 3 dB more depending on its carrier's phase.
extension ReplyKernels {
    /// The level of a reply of `bitCount` bits whose candidate start is `samples[0]`, at
    /// sub-sample `phase` (an index into `phaseOffsets`). `samples` must hold
    /// `span(bitCount:)` magnitudes, as every examined candidate does.
    func signalLevel(at samples: UnsafePointer<UInt16>, phase: Int, bitCount: Int) -> Double {
        let chip = sampleRate.tenthsPerChip
        // The data block starts after the 16 preamble chips and lasts two chips per bit;
        // times are in tenths of a sample. Whole samples inside it are averaged.
        let start = phaseOffsets[phase] + Self.preambleChips * chip
        let first = (start + 9) / 10
        let end = (start + 2 * bitCount * chip) / 10
        guard end > first else { return -.infinity }
        var sum: UInt64 = 0
        let ceiling = UInt64(MagnitudeConverter.fullScale.rounded())
        for index in first..<end {
            let magnitude = min(UInt64(samples[index]), ceiling)
            sum += magnitude * magnitude
        }
        let power = Double(sum) / Double(end - first) / (MagnitudeConverter.fullScale * MagnitudeConverter.fullScale)
        return Decibels.fromPower(power)
    }
}
