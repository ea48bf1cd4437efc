import IQ
import Simulator
import TestSupport
import Testing

@testable import ModeS
@testable import ModeSDemod

/// One-bit repairs of squitters whose wrong bit another pulse made (the collision repair,
/// `AcceptancePolicy.admitsCollisionRepair`).
@Suite(.computeBound) struct CollisionRepairTests {
    static let address: UInt32 = 0x4CA2D6
    /// The bit (1-based) that a foreign pulse hits, and a second one for two pulses.
    static let hitBit = 60
    static let secondHitBit = 75

    /// `clean` squitters of one aircraft, then `hit` ones, 400 µs apart, 40 LSB strong at
    /// `rate`; in each hit one, a pulse nearly three times as strong fills the empty chip of
    /// `hitBit`, as a Mode A/C reply's pulse would. Returns the bytes and the squitters sent.
    func stream(rate: SampleRate, clean: Int, hit: Int, bits hitBits: [Int] = [hitBit])
        -> (bytes: [UInt8], clean: [String], hit: [String])
    {
        let perMicrosecond = Double(rate.hertz) / 1e6
        let squitters = (0..<(clean + hit)).map { index in
            RectangularSignal.extendedSquitter(
                address: Self.address,
                payload: 0x58_1234_5678_9000 &+ UInt64(index) &* 0x1_0F0F_F0F1)
        }
        let starts = squitters.indices.map { 200 + Double($0) * 400 * perMicrosecond }
        let count = Int((Double(squitters.count) * 400 + 200) * perMicrosecond)
        let signal = RectangularSignal(sampleRate: rate, sampleCount: count, seed: 31)
        var bytes = signal.bytes(zip(squitters, starts).map { .init(bits: $0, start: $1, amplitude: 40) }, format: .cu8)
        let chip = Double(rate.tenthsPerChip) / 10
        for index in clean..<squitters.count {
            for bit in hitBits {
                // The empty chip: the second of a 1, the first of a 0.
                let empty = ReplyKernels.preambleChips + 2 * (bit - 1) + (squitters[index].bit(bit) == 1 ? 1 : 0)
                let first = starts[index] + Double(empty) * chip
                for sample in Int(first.rounded(.up))..<Int((first + chip).rounded(.down)) {
                    bytes[2 * sample] = 127 + 115
                    bytes[2 * sample + 1] = 128
                }
            }
        }
        return (bytes, squitters[..<clean].map(\.hex), squitters[clean...].map(\.hex))
    }

    /// Once the aircraft is confirmed, squitters with a bit made wrong by a much stronger
    /// foreign pulse are repaired: the bit was decided firmly, but both its chips are loud.
    /// (Without the rule, slices at other phases and starts recover only some of them.)
    /// The same with two bits hit.
    @Test(arguments: SampleRate.allCases, [[hitBit], [hitBit, secondHitBit]])
    func aSquitterWhoseBitsOtherPulsesHitIsRepairedForAKnownAircraft(rate: SampleRate, hitBits: [Int]) {
        let (bytes, clean, hit) = stream(rate: rate, clean: 4, hit: 12, bits: hitBits)
        let frames = Set(demodulate(bytes, format: .cu8, rate: rate).frames.map(\.bits.hex))
        #expect(frames.isSuperset(of: clean))
        #expect(frames.intersection(hit).count == hit.count, "\(frames.intersection(hit).count) of \(hit.count)")
        #expect(frames.isSubset(of: Set(clean + hit)), "frames never sent: \(frames.subtracting(clean + hit))")
    }

    /// The pieces: the repair's bits, both chips loud only where a pulse was added, and the
    /// rule asking for every fact.
    @Test func theRepairNeedsTheLoneErrorBothChipsLoudAndAKnownAddress() {
        let squitter = RectangularSignal.extendedSquitter(address: Self.address, payload: 0x58_1234_5678_9ABC)
        let gate = RepairGate(rankLimit: 6, knownAddressRankLimit: 24, allowTwoBits: true)
        var one = squitter
        one.flipBit(Self.hitBit)
        #expect(gate.repair(of: one).map { [$0.first, $0.second] } == [Self.hitBit, 0])
        var two = one
        two.flipBit(Self.secondHitBit)
        #expect(gate.repair(of: two).map { [$0.first, $0.second] } == [Self.hitBit, Self.secondHitBit])
        var format = squitter
        format.flipBit(3)
        #expect(gate.repair(of: format) == nil)

        let (bytes, _, _) = stream(rate: .twoPointFourMega, clean: 0, hit: 1)
        let kernels = ReplyKernels(sampleRate: .twoPointFourMega)
        let slicer = BitSlicer(kernels: kernels)
        var magnitudes = [UInt16](repeating: 0, count: bytes.count / 2)
        bytes.withUnsafeBytes { raw in
            magnitudes.withUnsafeMutableBufferPointer { values in
                MagnitudeConverter(format: .cu8).convert(
                    raw.baseAddress!, count: values.count, into: values.baseAddress!)
                let samples = UnsafePointer(values.baseAddress! + 200)
                let level = PreambleDetector(kernels: kernels).pulseAmplitude(at: samples, phase: 0) - 1500
                #expect(slicer.bothChipsLoud(Self.hitBit - 1, samples, phase: 0, limit: 1500 + level / 2))
                #expect(!slicer.bothChipsLoud(Self.hitBit - 2, samples, phase: 0, limit: 1500 + level / 2))
                #expect(!slicer.bothChipsLoud(Self.hitBit, samples, phase: 0, limit: 1500 + level / 2))
                // The hit bit, and at most the neighbour the pulse's edge reaches.
                let count = slicer.bothChipsLoudCount(112, samples, phase: 0, limit: 1500 + level / 2, enough: 17)
                #expect((1...2).contains(count))
            }
        }
        let policy = AcceptancePolicy(options: StreamingDemodulator.Options())
        func admits(_ loud: Bool, twoBits: Bool = true, _ count: Int, _ known: Bool, _ agrees: Bool) -> Bool {
            policy.admitsCollisionRepair(
                repairedBitsBothLoud: loud, twoBits: twoBits, bothLoudCount: count,
                addressKnown: known, agreesWithSquitters: agrees)
        }
        #expect(admits(true, 2, true, true))
        #expect(admits(true, 16, true, true))
        // Under another Mode S reply: a two-bit repair is not believed, a one-bit one is.
        #expect(!admits(true, 17, true, true))
        #expect(admits(true, twoBits: false, 40, true, true))
        #expect(!admits(false, 2, true, true))
        #expect(!admits(true, 2, false, true))
        #expect(!admits(true, 2, true, false))
    }
}
