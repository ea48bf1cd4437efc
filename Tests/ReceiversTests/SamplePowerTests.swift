import Foundation
import IQ
import ModeSDemod
import TestSupport
import Testing
import Tracking

@testable import Receivers

/// The noise level of stats.json, measured from raw samples.
@Suite struct SamplePowerTests {
    /// `count` cu8 samples of complex Gaussian noise with `rms` LSB per component, the first
    /// `loud` fraction of them carrying a carrier at `amplitude` LSB on top.
    static func samples(count: Int, rms: Double, loud: Double, amplitude: Double) -> [UInt8] {
        var random = SplitMix(state: 1090)
        func gaussian() -> Double {
            let u = max(Double.random(in: 0..<1, using: &random), 1e-12)
            let v = Double.random(in: 0..<1, using: &random)
            return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
        }
        var bytes: [UInt8] = []
        for index in 0..<count {
            let carrier = Double(index) < loud * Double(count) ? amplitude : 0
            for _ in 0..<2 { bytes.append(UInt8(max(0, min(255, (127.5 + carrier + rms * gaussian()).rounded())))) }
        }
        return bytes
    }

    @Test func theNoiseLevelIgnoresTheReplies() {
        // 4 LSB rms per component: 32 LSB² of 127.5², -27.0 dBFS; a tenth of the samples
        // carry a reply 20 dB above it, which would lift a plain mean by about 10 dB.
        let bytes = Self.samples(count: 200_000, rms: 4, loud: 0.1, amplitude: 57)
        var meter = SamplePower()
        let noise = bytes.withUnsafeBytes { meter.noise(of: $0, format: .cu8) }
        #expect(noise.measured == 200_000 / SamplePower.stride)
        let level = 10 * log10(noise.power)
        #expect(abs(level - 10 * log10(32 / (127.5 * 127.5))) < 1, "\(level) dBFS")
        let empty = [UInt8]().withUnsafeBytes { meter.noise(of: $0, format: .cu8) }
        #expect(empty.measured == 0)
    }

    /// cu8 samples are binned from a table, the other formats sample by sample: the same
    /// samples as cf32 read the same level.
    @Test func everyFormatReadsTheSameLevel() {
        let bytes = Self.samples(count: 50_000, rms: 6, loud: 0.05, amplitude: 40)
        var floats = [UInt8]()
        for byte in bytes {
            let value = Float((Double(byte) - 127.5) / 127.5)
            withUnsafeBytes(of: value.bitPattern.littleEndian) { floats.append(contentsOf: $0) }
        }
        var meter = SamplePower()
        let cu8 = bytes.withUnsafeBytes { meter.noise(of: $0, format: .cu8) }
        let cf32 = floats.withUnsafeBytes { meter.noise(of: $0, format: .cf32) }
        #expect(cu8.measured == cf32.measured)
        #expect(abs(10 * log10(cu8.power) - 10 * log10(cf32.power)) < 0.05, "cu8 \(cu8.power), cf32 \(cf32.power)")
    }

    /// A stream read in pieces that split samples (a pipe's short reads) measures the same
    /// noise as one read whole: each piece is measured from its first whole sample.
    @Test func readsThatSplitSamplesMeasureTheSameNoise() {
        let bytes = Self.samples(count: 40_000, rms: 5, loud: 0, amplitude: 0)
        var shorts = [UInt8]()
        for byte in bytes {
            let value = Int16((Double(byte) - 127.5) * 256)
            withUnsafeBytes(of: value.littleEndian) { shorts.append(contentsOf: $0) }
        }
        func noise(piece: Int) -> Double? {
            let tracker = WiredTracker(receiver: nil)
            let stream = SampleStream(
                format: .cs16, sampleRate: .twoPointFourMega, options: .init(),
                into: tracker, label: "test")
            shorts.withUnsafeBytes { all in
                var offset = 0
                while offset < all.count {
                    let end = min(all.count, offset + piece)
                    stream.process(IQBlock(bytes: UnsafeRawBufferPointer(rebasing: all[offset..<end]), arrival: 0))
                    offset = end
                }
            }
            stream.finish()
            return tracker.pipeline.local.meanNoiseDBFS
        }
        let whole = noise(piece: shorts.count)
        let split = noise(piece: 4_001)
        #expect(whole != nil)
        #expect(
            abs((whole ?? 0) - (split ?? 100)) < 0.5,
            "whole \(String(describing: whole)), split \(String(describing: split))")
    }
}
