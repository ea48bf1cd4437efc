import Foundation
import TestSupport
import Testing

extension EndToEnd {
    /// `aviator-adsb demod` as a user runs it: AVR lines out, a summary and clear errors on
    /// stderr, the right exit status.
    @Suite(.tags(.slow)) struct DemodCommandTests {
        /// A real 2.4 MS/s recording (Q first, then I) and what the peers found in it.
        static let recording = "rsadsb_1641428165033"

        static func shared(_ name: String) -> URL? {
            let url = BinaryRunner.projectRoot.deletingLastPathComponent()
                .appendingPathComponent("shared/iq/\(name)")
            if FileManager.default.fileExists(atPath: url.path) { return url }
            if ProcessInfo.processInfo.environment["CI"] == "true" {
                Issue.record("shared data missing: \(url.path)")
            } else {
                print("skipped: shared data missing: \(url.path)")
            }
            return nil
        }

        static func temporaryFile(_ bytes: [UInt8], suffix: String) throws -> URL {
            let url = FileManager.default.temporaryDirectory
                .appendingPathComponent("demod-test-\(UUID().uuidString)\(suffix)")
            try Data(bytes).write(to: url)
            return url
        }

        /// Simulates a recording named `file` with `arguments` into a fresh temporary folder;
        /// returns its path and the folder, which the caller removes.
        func simulated(_ file: String, _ arguments: [String]) throws -> (path: String, folder: URL) {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("demod-sky-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            return (try BinaryRunner.simulate(into: folder, file: file, arguments: arguments).path, folder)
        }

        @Test func sequenceDecisionsFindMoreAtTwoMegasamples() throws {
            // At 2.0 MS/s a reply half a sample off blurs every bit into its neighbour's; the
            // most likely sequence (`SequenceSlicer`) recovers replies that bit-by-bit
            // decisions lose, and the channel fit (off for that comparison, as it decides
            // many of the same replies) recovers more still; neither adds a frame that was
            // not sent.
            let (path, folder) = try simulated(
                "sky.cu8",
                [
                    "--sample-rate", "2.0M", "--duration", "10",
                    "--aircraft", "20", "--seed", "61", "--snr-min", "8", "--snr-max", "14"
                ])
            defer { try? FileManager.default.removeItem(at: folder) }
            let truth = try String(contentsOfFile: path + ".truth.jsonl", encoding: .utf8)
            var sent = Set<String>()
            for line in truth.split(separator: "\n") where line.contains("\"type\":\"message\"") {
                let object = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                sent.insert(try #require(object["hex"] as? String).uppercased())
            }
            func frames(_ extra: [String]) throws -> [String] {
                let run = try BinaryRunner.run(["demod", path, "--sample-rate", "2.0M"] + extra)
                #expect(run.status == 0)
                return run.stdout.split(separator: "\n").map {
                    $0.trimmingCharacters(in: CharacterSet(charactersIn: "*;"))
                }
            }
            let withSequences = try frames(["--no-channel-fit"])
            let bitByBit = try frames(["--no-channel-fit", "--no-sequence"])
            let everything = try frames([])
            print(
                "2.0 MS/s, 8-14 dB: \(withSequences.count) frames with sequence decisions, \(bitByBit.count) without, "
                    + "\(everything.count) with the channel fit as well")
            #expect(withSequences.count >= bitByBit.count + 10)
            #expect(everything.count >= withSequences.count + 10)
            #expect(withSequences.allSatisfy { sent.contains($0) })
            #expect(everything.allSatisfy { sent.contains($0) })
        }

        @Test func nonFiniteAndHugeFloatSamplesNeverStopIt() throws {
            // A float recording can hold anything. Every 997th value of a busy sky becomes, in
            // turn, the largest float (whose squares and products overflow to infinity), NaN,
            // +inf or -inf: demod and replay carry on, and find the sky's frames.
            let (path, folder) = try simulated(
                "sky.cf32", ["--format", "cf32", "--duration", "1", "--busy", "--seed", "5"])
            defer { try? FileManager.default.removeItem(at: folder) }
            var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            let poison: [Float] = [3.4e38, .nan, .infinity, -.infinity]
            for (turn, value) in stride(from: 0, to: bytes.count / 4, by: 997).enumerated() {
                withUnsafeBytes(of: poison[turn % 4].bitPattern.littleEndian) { raw in
                    for offset in 0..<4 { bytes[4 * value + offset] = raw[offset] }
                }
            }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let run = try BinaryRunner.run(["demod", path])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.split(separator: "\n").count > 500)
        }

        @Test(.requires(.shared("iq/rsadsb_1641428165033.sc16"))) func realRecordingGivesThePeersFramesAsAVR() throws {
            guard let file = Self.shared("\(Self.recording).sc16"),
                let peersFile = Self.shared("\(Self.recording).peers.hex")
            else { return }
            let result = try BinaryRunner.run(["demod", file.path])
            #expect(result.status == 0)
            let lines = result.stdout.split(separator: "\n").map(String.init)
            #expect(lines.allSatisfy { $0.hasPrefix("*") && $0.hasSuffix(";") })
            let peers = try String(contentsOf: peersFile, encoding: .utf8).split(separator: "\n")
            for hex in peers { #expect(lines.contains("*\(hex.uppercased());"), "missing \(hex)") }
            #expect(result.stderr.contains("131072 samples"))
            #expect(result.stderr.contains("DF17"))
            #expect(result.stderr.contains("corrected"))
        }

        @Test(.requires(.shared("iq/rsadsb_1641428165033.sc16")))
        func standardInputWithExplicitFormatGivesTheSameFrames() throws {
            guard let file = Self.shared("\(Self.recording).sc16") else { return }
            let direct = try BinaryRunner.run(["demod", file.path])
            let piped = try BinaryRunner.run(
                ["demod", "-", "--format", "cs16", "--sample-rate", "2400000"],
                input: try Data(contentsOf: file))
            #expect(piped.status == 0)
            #expect(!piped.stdout.isEmpty)
            #expect(piped.stdout == direct.stdout)
        }

        @Test func unknownFormatIsAUsageError() throws {
            let result = try BinaryRunner.run(["demod", "whatever.cu8", "--format", "u12"])
            #expect(result.status == 64)
            #expect(
                result.stderr.hasPrefix("Error: The value 'u12' is invalid for '--format <format>'"), "\(result.stderr)"
            )
            #expect(result.stdout.isEmpty)
        }

        @Test func unsupportedRateIsAUsageError() throws {
            let result = try BinaryRunner.run(["demod", "whatever.cu8", "--sample-rate", "3.2M"])
            #expect(result.status == 64)
            #expect(
                result.stderr.hasPrefix("Error: The value '3.2M' is invalid for '--sample-rate <sample-rate>'"),
                "\(result.stderr)")
        }

        @Test func missingFileIsOneClearError() throws {
            let result = try BinaryRunner.run(["demod", "/no/such/file.cu8"])
            #expect(result.status == 1)
            #expect(result.stderr == "Error: cannot open /no/such/file.cu8: No such file or directory\n")
        }

        @Test func emptyFileIsAnError() throws {
            let file = try Self.temporaryFile([], suffix: ".cu8")
            defer { try? FileManager.default.removeItem(at: file) }
            let result = try BinaryRunner.run(["demod", file.path])
            #expect(result.status != 0)
            #expect(result.stderr.contains("is empty"))
        }

        @Test(.requires(.shared("iq/rsadsb_1641428165033.sc16")))
        func truncatedFinalSampleIsReportedButFramesStillCome() throws {
            // 3 bytes of cs16: no complete sample at all.
            let tiny = try Self.temporaryFile([1, 2, 3], suffix: ".cs16")
            defer { try? FileManager.default.removeItem(at: tiny) }
            let nothing = try BinaryRunner.run(["demod", tiny.path])
            #expect(nothing.status != 0)
            #expect(nothing.stderr.contains("less than one cs16 sample"))

            guard let file = Self.shared("\(Self.recording).sc16") else { return }
            var bytes = [UInt8](try Data(contentsOf: file))
            bytes.append(contentsOf: [7, 7, 7])
            let odd = try Self.temporaryFile(bytes, suffix: ".sc16")
            defer { try? FileManager.default.removeItem(at: odd) }
            let result = try BinaryRunner.run(["demod", odd.path])
            #expect(result.status == 0)
            #expect(!result.stdout.isEmpty)
            #expect(result.stderr.contains("truncated sample (3 stray bytes"))
        }

        @Test func benchReportsThroughput() throws {
            let result = try BinaryRunner.run(["bench", "--seconds", "0.5", "--repeat", "1"])
            #expect(result.status == 0)
            #expect(result.stdout.contains("MS/s"))
            #expect(result.stdout.contains("500 frames") || result.stdout.contains("499 frames"))
        }
    }
}
