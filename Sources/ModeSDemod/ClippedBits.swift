import IQ
import ModeS

/// Which bits of a reply at the converter's rails the clipping itself decides beyond doubt.
///
/// A reply at the rails clips its pulses, and how loud a clipped pulse reads depends on the
/// carrier's phase (one component or both at full scale), which turns during the reply; the
/// dongle's ringing leaks into the empty chips as well. So the bits of a strong reply at the
/// rails score unevenly, and some fall below the limits that call a bit weak (a DF11's code
/// bits under half the mean confidence, `RepairGate.codeBits`; any bit under a quarter of a
/// clean bit's score, `RepairGate.firmEnough`), although nothing but the reply itself is
/// there. A bit is decided by the clipping (`decides`) when the sample holding most of its
/// pulse chip is clipped while the sample holding most of its empty chip is not, and reads
/// under two thirds as loud (leakage from a neighbouring pulse and ringing stay below that;
/// the reply's own pulse, unclipped where the carrier's phase spares it, does not). For the
/// other value, the reply's own pulse would have to be the quiet sample and something else
/// would have to reach the rails in its empty chip.
///
/// Only meaningful at the phase the chips were decided at; see
/// `AcceptancePolicy.readsClipping` for where it is asked.
struct ClippedBits {
    /// The least share of a chip (tenths) the sample read for it must hold: more than the
    /// neighbouring chip's share, so that the sample speaks for this chip.
    static let minimumShareTenths = 6

    private let format: SampleFormat
    /// Per phase and chip, the sample (from the candidate's start) holding at least
    /// `minimumShareTenths` of the chip, or −1 where no sample does (a chip split evenly).
    private let samples: [Int16]

    /// Tables for the phases of `kernels`, reading samples laid out as `format`.
    init(kernels: ReplyKernels, format: SampleFormat) {
        self.format = format
        let chip = kernels.sampleRate.tenthsPerChip
        var samples = [Int16]()
        for origin in kernels.phaseOffsets {
            for index in 0..<ChipEnvelope.chips {
                let start = origin + index * chip
                let best = (start / 10...(start + chip - 1) / 10).max { a, b in
                    Self.overlap(a, start: start, chip: chip) < Self.overlap(b, start: start, chip: chip)
                }!
                samples.append(
                    Self.overlap(best, start: start, chip: chip) >= Self.minimumShareTenths ? Int16(best) : -1)
            }
        }
        self.samples = samples
    }

    /// Tenths of sample `sample` that a chip of `chip` tenths starting at `start` covers.
    private static func overlap(_ sample: Int, start: Int, chip: Int) -> Int {
        min(10 * sample + 10, start + chip) - max(10 * sample, start)
    }

    /// Whether the clipping decides bit `number` (1-based) of `bits`, decided at `phase`.
    /// `raw` and `magnitudes` are the candidate's samples from its start.
    func decides(
        _ bits: ModeSBits, bit number: Int, phase: Int, raw: UnsafeRawPointer,
        magnitudes: UnsafePointer<UInt16>
    ) -> Bool {
        let row = phase * ChipEnvelope.chips
        let first = ReplyKernels.preambleChips + 2 * (number - 1)
        let (pulse, empty) = bits.bit(number) == 1 ? (first, first + 1) : (first + 1, first)
        let (loud, quiet) = (Int(samples[row + pulse]), Int(samples[row + empty]))
        guard loud >= 0, quiet >= 0 else { return false }
        return format.isClipped(raw, at: loud) && !format.isClipped(raw, at: quiet)
            && 3 * Int(magnitudes[quiet]) < 2 * Int(magnitudes[loud])
    }

    /// The interrogator-code bits (the last 7) of the DF11 `bits` that the clipping decides,
    /// as a mask in the code's own bit values (the last bit is 1, as in `RepairGate.codeBits`).
    func codeBitsDecided(
        _ bits: ModeSBits, phase: Int, raw: UnsafeRawPointer,
        magnitudes: UnsafePointer<UInt16>
    ) -> Int {
        let count = bits.bitCount
        var mask = 0
        for number in (count - 6)...count
        where decides(bits, bit: number, phase: phase, raw: raw, magnitudes: magnitudes) {
            mask |= 1 << (count - number)
        }
        return mask
    }

    /// Whether the clipping decides every code bit of the DF11 `bits` (`codeBitsDecided`):
    /// the reply is beyond the rails across its whole code, and nothing else reaches them in
    /// its empty chips. One decided bit beside others that are not proves less: a reply only
    /// just at the rails leaves some of its own pulses unclipped, and another reply's pulse at
    /// the rails in the empty chip of such a bit looks like that bit's pulse.
    func decidesCode(_ bits: ModeSBits, phase: Int, raw: UnsafeRawPointer, magnitudes: UnsafePointer<UInt16>) -> Bool {
        codeBitsDecided(bits, phase: phase, raw: raw, magnitudes: magnitudes) == 0x7F
    }
}
