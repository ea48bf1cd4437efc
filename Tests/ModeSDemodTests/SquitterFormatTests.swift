import Testing
@testable import ModeS
@testable import ModeSDemod
import Simulator

/// `BitSlicer.sliceAsSquitter`: a candidate whose format came out one bit from 17 starts the
/// channel fit as a squitter.
@Suite struct SquitterFormatTests {
    /// The plain slice and the squitter slice of `sent`, transmitted cleanly at `rate`.
    func slices(_ sent: ModeSBits, rate: SampleRate) -> (plain: ModeSBits?, squitter: ModeSBits?) {
        let kernels = ReplyKernels(sampleRate: rate)
        let slicer = BitSlicer(kernels: kernels)
        let count = 600
        let signal = RectangularSignal(sampleRate: rate, sampleCount: count, seed: 17)
        let bytes = signal.bytes([.init(bits: sent, start: 100, amplitude: 40)], format: .cu8)
        var magnitudes = [UInt16](repeating: 0, count: count)
        return bytes.withUnsafeBytes { raw in
            magnitudes.withUnsafeMutableBufferPointer { values in
                MagnitudeConverter(format: .cu8).convert(raw.baseAddress!, count: count, into: values.baseAddress!)
                let samples = UnsafePointer(values.baseAddress! + 100)
                return (slicer.slice(samples, phase: 0, feedback: 0), slicer.sliceAsSquitter(samples, phase: 0))
            }
        }
    }

    /// A squitter whose format reads 1, 19 or 25 (one bit wrong) is refused by the plain
    /// slice, and sliced as a squitter with every other bit as decided.
    @Test(arguments: SampleRate.allCases)
    func aFormatOneBitFromSeventeenIsSlicedAsASquitter(rate: SampleRate) {
        let squitter = RectangularSignal.extendedSquitter(address: 0x4CA2D6, payload: 0x58_1234_5678_9ABC)
        for format in [1, 19, 25] {
            var sent = squitter
            sent.setField(1, 5, UInt64(format))
            let (plain, asSquitter) = slices(sent, rate: rate)
            #expect(plain == nil, "format \(format)")
            #expect(asSquitter?.hex == squitter.hex, "format \(format)")
        }
    }

    /// Formats further from 17 (all-call replies, surveillance replies, other reserved
    /// formats) are not taken for squitters, nor is a squitter itself (its plain slice serves).
    @Test(arguments: SampleRate.allCases)
    func otherFormatsAreNotSlicedAsSquitters(rate: SampleRate) {
        let squitter = RectangularSignal.extendedSquitter(address: 0x4CA2D6, payload: 0x58_1234_5678_9ABC)
        for format in [17, 11, 4, 20, 24, 31] {
            var sent = squitter
            sent.setField(1, 5, UInt64(format))
            #expect(slices(sent, rate: rate).squitter == nil, "format \(format)")
        }
    }
}
