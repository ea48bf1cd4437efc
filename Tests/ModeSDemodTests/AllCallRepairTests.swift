import IQ
import Simulator
import TestSupport
import Testing

@testable import ModeS
@testable import ModeSDemod

/// All-call replies (DF11) repaired for one wrong bit outside their interrogator code (the
/// all-call repair, `RepairGate.allCallRepair`, `AcceptancePolicy.allCallRepairNeedsChannelFit`).
@Suite(.computeBound) struct AllCallRepairTests {
    static let address: UInt32 = 0x3C6DD2
    /// The bit (1-based, in the address) decided wrong.
    static let wrongBit = 20

    let gate = RepairGate(rankLimit: 6, knownAddressRankLimit: 24, allowTwoBits: true)

    /// Confidences of a 56-bit reply: every bit firm, those in `weak` near zero, `wrong`
    /// just above them.
    func confidences(weak: [Int], wrong: Int? = nil) -> [Int32] {
        (1...56).map { $0 == wrong ? 60 : weak.contains($0) ? 50 : 1000 + Int32($0) }
    }

    /// Any code with one wrong bit anywhere between the downlink format and the code reads
    /// as that bit and that code: the repair is never ambiguous.
    @Test func everyLoneWrongBitOutsideTheCodeIsFoundWithItsCodeKept() {
        var wrongReadings = 0
        for code in UInt32(0)..<128 {
            let reply = allCall(address: Self.address, code: code)
            for bit in 6..<AcceptancePolicy.firstCodeBit {
                var sliced = reply
                sliced.flipBit(bit)
                let scores = confidences(weak: [bit])
                guard
                    let number = scores.withUnsafeBufferPointer({
                        gate.allCallRepair(sliced, confidence: $0.baseAddress!)
                    }),
                    number == bit
                else {
                    wrongReadings += 1
                    continue
                }
                sliced.flipBit(number)
                if sliced != reply { wrongReadings += 1 }
            }
        }
        #expect(wrongReadings == 0)
    }

    /// Not repaired: a wrong bit the reply decided firmly (beyond the 24 least confident),
    /// a wrong code bit (the parity cannot tell it), a wrong format bit, another format.
    @Test func firmBitsCodeBitsAndFormatBitsAreNotRepaired() {
        let reply = allCall(address: Self.address, code: 0)
        func repair(_ flips: [Int], weak: [Int]) -> Int? {
            var sliced = reply
            for bit in flips { sliced.flipBit(bit) }
            return confidences(weak: weak, wrong: flips.first).withUnsafeBufferPointer {
                gate.allCallRepair(sliced, confidence: $0.baseAddress!)
            }
        }
        #expect(repair([30], weak: []) == 30)
        // 23 bits less confident than the wrong one: still repaired; 24: not.
        #expect(repair([30], weak: Array(33..<56)) == 30)
        #expect(repair([30], weak: Array(32..<56)) == nil)
        #expect(repair([53], weak: [53]) == nil)
        #expect(repair([3], weak: [3]) == nil)
        var squitter = RectangularSignal.extendedSquitter(address: Self.address, payload: 0x58_1234_5678_9ABC)
        squitter.flipBit(30)
        let long = [Int32](repeating: 1000, count: 112)
        #expect(long.withUnsafeBufferPointer { gate.allCallRepair(squitter, confidence: $0.baseAddress!) } == nil)
    }

    /// The channel fit's word is needed on a station's code, and on code 0 of a strong
    /// reply unless the plain slice at its best phase gave it.
    @Test func theRuleAsksTheChannelFitWhereACodeMayBeWrong() {
        let policy = AcceptancePolicy(options: StreamingDemodulator.Options())
        let plain = SliceAttempt(rank: 0, slicer: .plain)
        let secondPhase = SliceAttempt(rank: 1, slicer: .plain)
        let feedback = SliceAttempt(rank: 0, slicer: .amplitudeFeedback)
        func needsFit(station: Bool = false, _ attempt: SliceAttempt, strong: Bool) -> Bool {
            policy.allCallRepairNeedsChannelFit(stationCode: station, attempt: attempt, strong: strong)
        }
        #expect(!needsFit(plain, strong: true))
        #expect(!needsFit(secondPhase, strong: false))
        #expect(!needsFit(feedback, strong: false))
        #expect(needsFit(secondPhase, strong: true))
        #expect(needsFit(feedback, strong: true))
        #expect(needsFit(station: true, plain, strong: false))
    }

    /// Six squitters from the aircraft (when `confirmed`), then six of its all-call
    /// replies with `code`, 400 µs apart, 40 LSB strong at `rate`. In each reply the pulse
    /// of `wrongBit` is weakened to 0.2 of the reply's, and its empty chip filled to 0.8:
    /// the bit is decided wrong, with less confidence than any other. Returns the bytes and the
    /// all-call reply sent.
    func stream(rate: SampleRate, code: UInt32, confirmed: Bool) -> (bytes: [UInt8], reply: ModeSBits) {
        let perMicrosecond = Double(rate.hertz) / 1e6
        let reply = allCall(address: Self.address, code: code)
        let squitters =
            confirmed
            ? (0..<6).map {
                RectangularSignal.extendedSquitter(address: Self.address, payload: 0x58_1234_5678_9000 &+ UInt64($0))
            } : []
        let replies = squitters + [ModeSBits](repeating: reply, count: 6)
        let starts = replies.indices.map { 200 + Double($0) * 400 * perMicrosecond }
        let count = Int((Double(replies.count) * 400 + 200) * perMicrosecond)
        let signal = RectangularSignal(sampleRate: rate, sampleCount: count, seed: 47)
        var bytes = signal.bytes(zip(replies, starts).map { .init(bits: $0, start: $1, amplitude: 40) }, format: .cu8)
        let chip = Double(rate.tenthsPerChip) / 10
        for start in starts[squitters.count...] {
            // Every sample whose middle lies in the bit: 0.2 of the pulse in its pulse chip,
            // 0.8 in its empty chip (in phase, so the magnitude is exactly that).
            let first = start + Double(ReplyKernels.preambleChips + 2 * (Self.wrongBit - 1)) * chip
            let pulseChip = reply.bit(Self.wrongBit) == 1 ? 0 : 1
            for sample in Int((first - 0.5).rounded(.up))..<Int((first + 2 * chip - 0.5).rounded(.up)) {
                let chipIndex = Int((Double(sample) + 0.5 - first) / chip)
                bytes[2 * sample] = chipIndex == pulseChip ? 128 + 8 : 128 + 32
                bytes[2 * sample + 1] = 128
            }
        }
        return (bytes, reply)
    }

    /// Once the aircraft is confirmed, its all-call replies with a bit decided wrong are
    /// repaired, and say so; before, they are not (and nothing else is made of them). With
    /// code 0, and with a station's code, which the channel fit confirms.
    @Test(arguments: SampleRate.allCases, [UInt32(0), 5])
    func anAllCallReplyWithOneWrongBitIsRepairedForAConfirmedAircraft(rate: SampleRate, code: UInt32) {
        let (bytes, reply) = stream(rate: rate, code: code, confirmed: true)
        let replies = demodulate(bytes, format: .cu8, rate: rate).frames.filter { $0.downlinkFormat == 11 }
        #expect(replies.count == 6)
        #expect(replies.allSatisfy { $0.bits == reply && $0.correctedBits == 1 })

        // Unconfirmed: not repaired. At 2.0 MS/s the channel fit decides the bit right, and
        // the first reply it gives confirms the aircraft for the others.
        let (alone, _) = stream(rate: rate, code: code, confirmed: false)
        let unconfirmed = demodulate(alone, format: .cu8, rate: rate).frames
        #expect(unconfirmed.allSatisfy { $0.bits == reply })
        if rate == .twoPointFourMega { #expect(unconfirmed.isEmpty) }
    }
}
