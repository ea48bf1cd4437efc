import Foundation
import TestSupport
import Testing

extension EndToEnd {
    /// An established decoder, written by others, decodes what the simulator sends: proof that
    /// the signal is what real receivers expect, not only what our own demodulator likes.
    @Suite(.tags(.slow)) struct IndependentDecoderTests {
        static let dump1090 = "/usr/bin/dump1090-mutability"

        @Test(.requires(.program(IndependentDecoderTests.dump1090)))
        func dump1090DecodesStrongSimulatedMessages() throws {
            guard FileManager.default.isExecutableFile(atPath: Self.dump1090) else {
                Issue.record("dump1090-mutability is not installed (make deps installs it)")
                return
            }
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "independent-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let path = folder.appendingPathComponent("strong.cu8").path
            let made = try BinaryRunner.run([
                "simulate", "--out", path, "--sample-rate", "2.4M", "--duration", "3",
                "--aircraft", "8", "--seed", "31", "--snr-min", "16", "--snr-max", "25"
            ])
            #expect(made.status == 0, "\(made.stderr)")
            let truth = try String(contentsOfFile: path + ".truth.jsonl", encoding: .utf8)
            // Address/parity replies (DF4/5/20/21) can only be accepted once their address has been
            // heard in a DF11/17 with a real CRC (every careful decoder, ours included, does this),
            // so replies from an aircraft not heard yet are not expected.
            var expected: [String: Int] = [:]
            var heard = Set<String>()
            for line in truth.split(separator: "\n") where line.contains("\"type\":\"message\"") {
                let object = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                let df = try #require(object["df"] as? Int)
                let icao = try #require(object["icao"] as? String)
                if df == 11 || df == 17 { heard.insert(icao) } else if !heard.contains(icao) { continue }
                expected[try #require(object["hex"] as? String), default: 0] += 1
            }
            let total = expected.values.reduce(0, +)
            #expect(total > 100)

            // This build of dump1090-mutability demodulates at 2.4 MS/s by default (--oversample).
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Self.dump1090)
            process.arguments = ["--ifile", path, "--iformat", "UC8", "--oversample", "--raw"]
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            var decoded = 0
            for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
                let hex = line.trimmingCharacters(in: CharacterSet(charactersIn: "*; \r")).uppercased()
                if let count = expected[hex], count > 0 {
                    expected[hex] = count - 1
                    decoded += 1
                }
            }
            let yield = Double(decoded) / Double(total)
            print("dump1090-mutability decoded \(decoded) of \(total) simulated messages (16-25 dB)")
            #expect(yield >= 0.95, "dump1090-mutability decoded only \(decoded) of \(total)")
        }
    }
}
