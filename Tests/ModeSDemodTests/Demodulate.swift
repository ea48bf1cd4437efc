import Foundation
@testable import ModeS
@testable import ModeSDemod
import Simulator

/// Runs a whole byte stream through a fresh demodulator in blocks of the given sizes
/// (cycled), returning every frame.
func demodulate(_ bytes: [UInt8], format: SampleFormat, rate: SampleRate, blockSizes: [Int] = [1 << 20],
                options: StreamingDemodulator.Options = .init()) -> (frames: [Frame], leftover: Int) {
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
    return (frames, leftover)
}
