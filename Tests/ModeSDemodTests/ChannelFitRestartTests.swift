import Foundation
import ModeS
import Simulator
import TestSupport
import Testing

@testable import ModeSDemod

/// The channel fit's later starts (`StreamingDemodulator.examine`): where a fit from the
/// sequence's bits finds nothing, one from the first usable slice or, on a weak reply, from
/// another usable slice of a squitter often does.
@Suite(.computeBound) struct ChannelFitRestartTests {
    /// A realistic simulated sky of 20 aircraft whose every message arrives at 3-6 dB: the
    /// frames and statistics of the demodulator, and the messages on air.
    static func weakSky(seconds: Double) throws -> (
        frames: [Frame], statistics: DemodulatorStatistics,
        sent: Set<ModeSBits>
    ) {
        var settings = Simulation.Settings()
        settings.duration = seconds
        settings.seed = 7311
        settings.snrRange = 3...6
        settings.channel = .realistic
        let simulation = try Simulation(settings: settings)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("weak-\(UUID().uuidString).cu8").path
        defer {
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(atPath: path + ".truth.jsonl")
        }
        _ = try simulation.write(to: path)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let demodulator = StreamingDemodulator(format: .cu8, sampleRate: .twoPointFourMega)
        var frames = [Frame]()
        bytes.withUnsafeBytes { raw in demodulator.process(raw) { frames.append($0) } }
        _ = demodulator.finish { frames.append($0) }
        return (frames, demodulator.statistics, Set(simulation.transmissions.map(\.bits)))
    }

    @Test func weakRepliesGiveFramesFromLaterStartsAndNoFalseOne() throws {
        let (frames, statistics, sent) = try Self.weakSky(seconds: 2)
        #expect(frames.count > 80, "\(frames.count) frames")
        #expect(statistics.restartedChannelFitFrames > 0)
        #expect(statistics.restartedChannelFitFrames <= statistics.channelFitFrames)
        let notSent = frames.filter { !sent.contains($0.bits) }
        #expect(notSent.isEmpty, "\(notSent.map(\.bits.hex))")
    }
}
