import IQ
import Simulator
import TestSupport
import Testing

@testable import ModeS
@testable import ModeSDemod

@Suite(.computeBound) struct ClippedBitsTests {
    /// An all-call reply to a station (code 0x15), with the candidate's magnitudes and raw
    /// samples, at `rate`, starting at sample 100 plus `phase`'s offset: `amplitude` (LSB)
    /// with the carrier 40 kHz off, so its phase turns during the reply; `across`, a second
    /// reply as strong starting `acrossStart` samples after the first, if any.
    func firmBits(
        rate: SampleRate, phase: Int, amplitude: Double, acrossStart: Double? = nil,
        format: SampleFormat = .cu8
    ) -> Int {
        measure(rate: rate, phase: phase, amplitude: amplitude, acrossStart: acrossStart, format: format).firm
    }

    /// `firmBits`, and whether the whole code is decided (`ClippedBits.decidesCode`).
    func measure(
        rate: SampleRate, phase: Int, amplitude: Double, acrossStart: Double? = nil,
        format: SampleFormat = .cu8
    ) -> (firm: Int, decided: Bool) {
        let kernels = ReplyKernels(sampleRate: rate)
        let check = ClippedBits(kernels: kernels, format: format)
        var bits = ModeSBits(bitCount: 56)
        bits.setField(1, 5, 11)
        bits.setField(6, 8, 5)
        bits.setField(9, 32, 0x48_41D6)
        bits = CRC.withParity(bits, overlay: 0x15)
        let start = 100 + Double(kernels.phaseOffsets[phase]) / 10
        var bursts = [RectangularSignal.Burst(bits: bits, start: start, amplitude: amplitude, frequencyOffset: 40_000)]
        if let acrossStart {
            bursts.append(
                .init(
                    bits: RectangularSignal.extendedSquitter(address: 0x3C_6511, payload: 0x58_F0F0_0F0F_1234),
                    start: start + acrossStart, amplitude: amplitude, frequencyOffset: -30_000))
        }
        let count = 800
        let bytes = RectangularSignal(sampleRate: rate, sampleCount: count, seed: 21).bytes(bursts, format: format)
        var magnitudes = [UInt16](repeating: 0, count: count)
        return bytes.withUnsafeBytes { raw in
            magnitudes.withUnsafeMutableBufferPointer { values in
                MagnitudeConverter(format: format).convert(raw.baseAddress!, count: count, into: values.baseAddress!)
                let (raw, magnitudes) = (raw.baseAddress! + 100 * format.bytesPerSample, values.baseAddress! + 100)
                return (
                    check.codeBitsDecided(bits, phase: phase, raw: raw, magnitudes: magnitudes),
                    check.decidesCode(bits, phase: phase, raw: raw, magnitudes: magnitudes)
                )
            }
        }
    }

    /// Beyond the rails most code bits are firm at every phase: a sample holding all or most
    /// of a pulse chip is clipped, and one holding an empty chip is not. (Where a sample
    /// holds 60 to 80 % of a chip, the carrier's phase decides whether that clips, and its
    /// neighbour may then read loud: not every bit is firm.) At 2.0 MS/s a chip starting half
    /// a sample off is split evenly: no sample speaks for it, and nothing is firm.
    @Test(arguments: SampleRate.allCases)
    func aReplyAtTheRailsHasMostCodeBitsFirm(rate: SampleRate) {
        for (phase, offset) in ReplyKernels(sampleRate: rate).phaseOffsets.enumerated() {
            let firm = firmBits(rate: rate, phase: phase, amplitude: 200)
            if rate == .twoMega, offset == 5 {
                #expect(firm == 0)
            } else {
                #expect(firm.nonzeroBitCount >= 4, "phase \(offset) tenths: \(String(firm, radix: 2))")
            }
        }
        for format in SampleFormat.allCases {
            #expect(firmBits(rate: rate, phase: 0, amplitude: 200, format: format).nonzeroBitCount >= 4, "\(format)")
        }
    }

    /// Below the rails nothing is clipped, and nothing is firm this way, however clean.
    @Test(arguments: SampleRate.allCases)
    func aReplyBelowTheRailsHasNoneFirm(rate: SampleRate) {
        #expect(firmBits(rate: rate, phase: 0, amplitude: 60) == 0)
    }

    /// A second reply at the rails across the code puts clipped pulses into empty chips:
    /// those bits are no longer firm (its pulses can also lift a pulse chip of the first to
    /// the rails, so another bit may become firm), and fewer are firm than alone.
    @Test(arguments: SampleRate.allCases)
    func anotherReplyAtTheRailsAcrossTheCodeTakesFirmnessAway(rate: SampleRate) {
        let perMicrosecond = Double(rate.hertz) / 1e6
        let alone = firmBits(rate: rate, phase: 0, amplitude: 200)
        // The second reply's data covers the first one's last 20 µs.
        let across = firmBits(rate: rate, phase: 0, amplitude: 200, acrossStart: 36 * perMicrosecond)
        #expect(
            across.nonzeroBitCount < alone.nonzeroBitCount, "\(String(alone, radix: 2)) → \(String(across, radix: 2))")
    }

    /// The whole code is decided by the clipping only when every code bit is firm: at
    /// 2.0 MS/s with the chips on the samples, a reply beyond the rails; not below them, and
    /// not with another reply at the rails across its code.
    @Test func theWholeCodeIsDecidedOnlyWhenEveryBitIsFirm() {
        let alone = measure(rate: .twoMega, phase: 0, amplitude: 200)
        #expect(alone.firm == 0x7F && alone.decided)
        #expect(!measure(rate: .twoMega, phase: 0, amplitude: 60).decided)
        let across = measure(rate: .twoMega, phase: 0, amplitude: 200, acrossStart: 72)
        #expect(across.firm != 0x7F && !across.decided)
    }

    /// The firmness test counts a weak bit that the clipping decides as firm: one weak bit in
    /// seven is too many, but not once two of them are decided at the rails.
    @Test func aBitTheClippingDecidesIsNotWeakForFirmness() {
        let gate = RepairGate(rankLimit: 6, knownAddressRankLimit: 24, allowTwoBits: true)
        var confidence = [Int32](repeating: 100, count: 56)
        for index in 0..<8 { confidence[7 * index] = 10 }
        confidence.withUnsafeBufferPointer { scores in
            #expect(!gate.firmEnough(scores.baseAddress!, count: 56, typicalScore: 100))
            #expect(!gate.firmEnough(scores.baseAddress!, count: 56, typicalScore: 100, decidedAtRails: { $0 == 1 }))
            #expect(
                gate.firmEnough(
                    scores.baseAddress!, count: 56, typicalScore: 100,
                    decidedAtRails: { $0 == 0 || $0 == 7 }))
        }
    }
}
