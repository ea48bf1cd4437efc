import Foundation
import ModeS
import Simulator
import TestSupport
import Testing

@testable import ModeSDemod

/// The demodulator's levels (`DemodulatorLevel`): each leaves out what the ladder says, a level
/// set at the start gives the frames of the same options set by hand, and a level changed
/// between blocks takes effect from the next block without losing the stream.
@Suite(.computeBound) struct DemodulatorLevelTests {
    /// A second of a busy realistic sky (cu8, 2.4 MS/s), and the messages on air.
    static func busySky() throws -> (bytes: [UInt8], sent: Set<ModeSBits>) {
        var settings = Simulation.Settings()
        settings.duration = 1
        settings.seed = 7102
        settings.busy = true
        settings.aircraft = 150
        settings.channel = .realistic
        let simulation = try Simulation(settings: settings)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("level-\(UUID().uuidString).cu8").path
        defer {
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(atPath: path + ".truth.jsonl")
        }
        _ = try simulation.write(to: path)
        return (try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))), Set(simulation.transmissions.map(\.bits)))
    }

    @Test func eachLevelLeavesOutWhatTheLadderSays() {
        let options = StreamingDemodulator.Options()
        let restricted = DemodulatorLevel.all.map { $0.restrict(options) }
        #expect(restricted.map(\.sequenceRetry) == [false, false, false, false, true])
        #expect(restricted.map(\.channelFit) == [false, false, false, true, true])
        #expect(restricted.map(\.feedbackRetry) == [false, false, true, true, true])
        #expect(restricted.map(\.cancelOverlaps) == [false, true, true, true, true])
        #expect(restricted.map(\.coherentRetry) == [false, true, true, true, true])
        // A technique already off stays off at every level.
        var without = options
        without.channelFit = false
        #expect(DemodulatorLevel.full.restrict(without).channelFit == false)
        #expect(DemodulatorLevel.plain.lower == nil && DemodulatorLevel.full.higher == nil)
        #expect(
            DemodulatorLevel(5) == nil && DemodulatorLevel(-1) == nil
                && DemodulatorLevel(2)?.description == "no channel fit")
    }

    @Test func aLevelGivesTheFramesOfTheSameOptionsSetByHand() throws {
        let (bytes, sent) = try Self.busySky()
        var counts: [Int] = []
        for level in [DemodulatorLevel.plain, DemodulatorLevel(2)!, .full] {
            var byLevel = StreamingDemodulator.Options()
            byLevel.level = level
            let byHand = level.restrict(StreamingDemodulator.Options())
            let leveled = demodulate(bytes, format: .cu8, rate: .twoPointFourMega, options: byLevel).frames
            let manual = demodulate(bytes, format: .cu8, rate: .twoPointFourMega, options: byHand).frames
            // The raw samples kept at every level for a step up change nothing below.
            #expect(leveled.map(\.bits) == manual.map(\.bits), "level \(level)")
            #expect(leveled.map(\.timestamp) == manual.map(\.timestamp), "level \(level)")
            #expect(leveled.allSatisfy { sent.contains($0.bits) }, "level \(level): a frame not on air")
            counts.append(leveled.count)
        }
        // Each technique is worth frames on a busy sky: the ladder is not flat.
        #expect(counts[0] < counts[1] && counts[1] < counts[2], "\(counts)")
    }

    @Test func aLevelChangedBetweenBlocksTakesEffectWithoutLosingTheStream() throws {
        let (bytes, sent) = try Self.busySky()
        let full = demodulate(bytes, format: .cu8, rate: .twoPointFourMega).frames
        let plain = demodulate(
            bytes, format: .cu8, rate: .twoPointFourMega, options: DemodulatorLevel.plain.restrict(.init())
        ).frames
        let demodulator = StreamingDemodulator(format: .cu8, sampleRate: .twoPointFourMega)
        var frames = [Frame]()
        let block = 1 << 17
        bytes.withUnsafeBytes { raw in
            var offset = 0
            var turn = 0
            while offset < raw.count {
                // Down to plain and back up every other block.
                demodulator.setLevel(turn % 2 == 0 ? .full : .plain)
                let end = min(offset + block, raw.count)
                demodulator.process(UnsafeRawBufferPointer(rebasing: raw[offset..<end])) { frames.append($0) }
                offset = end
                turn += 1
            }
        }
        _ = demodulator.finish { frames.append($0) }
        #expect(frames.allSatisfy { sent.contains($0.bits) })
        // Between the two fixed levels, and in time order.
        #expect(frames.count > plain.count && frames.count < full.count, "\(plain.count) \(frames.count) \(full.count)")
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.timestamp <= $1.timestamp })
    }
}
