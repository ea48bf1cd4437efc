import Foundation
import IQ
import Simulator

@testable import ModeS
@testable import ModeSDemod

/// Runs a whole byte stream through a fresh demodulator in blocks of the given sizes
/// (cycled), returning every frame, the stray bytes of a last partial sample and the
/// demodulator's counts.
func demodulate(
    _ bytes: [UInt8], format: SampleFormat, rate: SampleRate, blockSizes: [Int] = [1 << 20],
    options: StreamingDemodulator.Options = .init()
)
    -> (frames: [Frame], leftover: Int, statistics: DemodulatorStatistics)
{
    let demodulator = StreamingDemodulator(format: format, sampleRate: rate, options: options)
    var frames = [Frame]()
    bytes.withUnsafeBytes { raw in
        var offset = 0
        var turn = 0
        while offset < raw.count {
            let size = min(blockSizes[turn % blockSizes.count], raw.count - offset)
            demodulator.process(UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + size)])) { frames.append($0) }
            offset += size
            turn += 1
        }
    }
    let leftover = demodulator.finish { frames.append($0) }
    return (frames, leftover, demodulator.statistics)
}

/// The magnitudes of `sent`, transmitted cleanly (amplitude 40, cu8) at `rate` from sample
/// 100 of 600 with the simulator's noise of `seed`, handed to `body` from the reply's start.
func withCleanReply<Result>(
    _ sent: ModeSBits, rate: SampleRate, seed: UInt64,
    _ body: (UnsafePointer<UInt16>) -> Result
) -> Result {
    let count = 600
    let signal = RectangularSignal(sampleRate: rate, sampleCount: count, seed: seed)
    let bytes = signal.bytes([.init(bits: sent, start: 100, amplitude: 40)], format: .cu8)
    var magnitudes = [UInt16](repeating: 0, count: count)
    return bytes.withUnsafeBytes { raw in
        magnitudes.withUnsafeMutableBufferPointer { values in
            MagnitudeConverter(format: .cu8).convert(raw.baseAddress!, count: count, into: values.baseAddress!)
            return body(UnsafePointer(values.baseAddress! + 100))
        }
    }
}
