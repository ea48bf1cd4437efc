import Foundation
import ModeS
import Testing

@testable import FuzzTargets

/// The fuzz targets without a fuzzer: every seed and every saved regression input under
/// `Fuzz/Corpus/<target>/` goes through the same function the libFuzzer executables call,
/// so a bug a fuzzer once found cannot come back unnoticed in a normal `swift test`.
@Suite struct CorpusReplayTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus")

    /// The files of one target's corpus, sorted by name.
    static func inputs(of target: FuzzTarget) throws -> [URL] {
        let folder = corpus.appendingPathComponent(target.rawValue)
        return try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { !$0.lastPathComponent.hasPrefix(".") }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    @Test(arguments: FuzzTarget.allCases)
    func everyCorpusInputPasses(_ target: FuzzTarget) throws {
        let files = try Self.inputs(of: target)
        #expect(files.count >= 10, "Fuzz/Corpus/\(target.rawValue) has \(files.count) inputs")
        for file in files {
            let input = try [UInt8](Data(contentsOf: file))
            do {
                try target.run(input)
            } catch {
                Issue.record("\(target.rawValue)/\(file.lastPathComponent): \(error)")
            }
        }
    }

    @Test func theCorpusStaysSmall() throws {
        var total = 0
        for target in FuzzTarget.allCases {
            for file in try Self.inputs(of: target) {
                total += try file.resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 0
            }
        }
        #expect(total > 0)
        #expect(total < 2_000_000, "the seed corpus is \(total) bytes")
    }

    @Test func everyTargetHasACorpusFolderAndNoOtherFolderIsThere() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path).filter {
            !$0.hasPrefix(".")
        }
        #expect(Set(folders) == Set(FuzzTarget.allCases.map(\.rawValue)))
    }

    // The checks themselves must be able to fail, or a replay that passes proves nothing.

    @Test func theJSONCheckRejectsWhatJSONCannotHold() throws {
        #expect(throws: FuzzFailure.self) { try JSONCheck.object("{\"lat\":inf}", "test") }
        #expect(throws: FuzzFailure.self) { try JSONCheck.object("{\"lat\":1e999}", "test") }
        #expect(throws: FuzzFailure.self) { try JSONCheck.object("[1,2]", "test") }
        #expect(throws: FuzzFailure.self) { try JSONCheck.object("{\"a\":1}\n{\"b\":2}", "test") }
        try JSONCheck.object("{\"lat\":52.1,\"x\":[1,{\"y\":null}]}\n", "test")
    }

    @Test func theFrameCheckRejectsAFrameWhoseParityDoesNotProveIt() throws {
        let good = try #require(ModeSBits(hex: "8D4840D6202CC371C32CE0576098"))
        try FrameCheck.validated(Frame(bits: good, address: 0x4840D6), "test")
        var damaged = good
        damaged.flipBit(40)
        #expect(throws: FuzzFailure.self) { try FrameCheck.validated(Frame(bits: damaged, address: 0x4840D6), "test") }
        #expect(throws: FuzzFailure.self) { try FrameCheck.validated(Frame(bits: good, address: 0x123456), "test") }
        let short = try #require(ModeSBits(hex: "02E19898C5B53F"))
        #expect(throws: FuzzFailure.self) {
            try FrameCheck.validated(Frame(bits: short, address: CRC.syndrome(of: short) ^ 1), "test")
        }
    }

    @Test(arguments: [0, 1, 2, 3, 200, 255] as [UInt8])
    func theBlockCutterHandsOnEveryByteOnceInOrder(_ seed: UInt8) {
        let input = (0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var cutter = BlockCutter(seed: seed)
        var sizes: [Int] = []
        var total = 0
        while total < input.count {
            let size = cutter.next()
            sizes.append(size)
            total += size
        }
        #expect(sizes.allSatisfy { $0 >= 1 && $0 <= 9000 })
        #expect(sizes.count > 2)
        #expect(Set(sizes).count > 1)
    }
}
