import Foundation
import TestSupport
import Testing

extension EndToEnd {
    /// `make samples` (scripts/make-samples.sh) regenerates the committed Samples/ bit for bit,
    /// and they stay small.
    @Suite(.tags(.slow)) struct SamplesTests {
        static var samplesFolder: URL { BinaryRunner.projectRoot.appendingPathComponent("Samples") }

        static func committedFiles() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: samplesFolder.path)
                .filter { $0 != "README.md" }.sorted()
        }

        @Test func samplesAreSmall() throws {
            var total = 0
            let files = try Self.committedFiles()
            #expect(files.filter { !$0.hasSuffix(".truth.jsonl") }.count >= 3)
            for name in files {
                let size =
                    try FileManager.default.attributesOfItem(
                        atPath: Self.samplesFolder.appendingPathComponent(name).path)[.size] as? Int ?? 0
                #expect(size <= 4_000_000, "\(name) is \(size) bytes")
                total += size
            }
            #expect(total <= 16_000_000)
        }

        @Test func makeSamplesRegeneratesThemBitIdentically() throws {
            let out = FileManager.default.temporaryDirectory.appendingPathComponent("samples-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: out) }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = [BinaryRunner.projectRoot.appendingPathComponent("scripts/make-samples.sh").path]
            var environment = ProcessInfo.processInfo.environment
            environment["BINARY"] = BinaryRunner.binary.path
            environment["OUT"] = out.path
            process.environment = environment
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            let regenerated = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
            #expect(regenerated == (try Self.committedFiles()))
            for name in regenerated {
                let fresh = try Data(contentsOf: out.appendingPathComponent(name))
                let committed = try Data(contentsOf: Self.samplesFolder.appendingPathComponent(name))
                #expect(fresh == committed, "\(name) differs from the committed sample")
            }
        }
    }
}
