import Foundation
import TestSupport
import Testing

extension EndToEnd {
    /// `aviator-adsb simulate` as a user runs it.
    @Suite(.tags(.slow)) struct SimulateCommandTests {
        static func temporaryFolder() throws -> URL {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("simulate-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            return url
        }

        static func truthLines(_ path: String) throws -> [[String: Any]] {
            let text = try String(contentsOfFile: path + ".truth.jsonl", encoding: .utf8)
            return try text.split(separator: "\n").map {
                try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
            }
        }

        @Test func helpDescribesEveryOption() throws {
            let result = try BinaryRunner.run(["simulate", "--help"])
            #expect(result.status == 0)
            for option in [
                "--out", "--format", "--sample-rate", "--duration", "--aircraft", "--seed",
                "--snr-min", "--snr-max", "--receiver", "--busy"
            ] {
                #expect(result.stdout.contains(option), "missing \(option)")
            }
        }

        @Test func writesSamplesAndTruthReproducibly() throws {
            let folder = try Self.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let a = folder.appendingPathComponent("a.cu8").path
            let b = folder.appendingPathComponent("b.cu8").path
            let arguments = ["simulate", "--duration", "0.1", "--aircraft", "30", "--seed", "7"]
            let first = try BinaryRunner.run(arguments + ["--out", a])
            #expect(first.status == 0, "\(first.stderr)")
            #expect(first.stderr.contains("messages"))
            #expect(first.stderr.contains("240000 bytes") || first.stderr.contains("480000 bytes"))
            let second = try BinaryRunner.run(arguments + ["--out", b])
            #expect(second.status == 0)
            let bytesA = try Data(contentsOf: URL(fileURLWithPath: a))
            #expect(bytesA.count == 240_000 * 2)
            #expect(bytesA == (try Data(contentsOf: URL(fileURLWithPath: b))))
            let truthA = try Data(contentsOf: URL(fileURLWithPath: a + ".truth.jsonl"))
            #expect(truthA == (try Data(contentsOf: URL(fileURLWithPath: b + ".truth.jsonl"))))

            let lines = try Self.truthLines(a)
            let header = try #require(lines.first)
            #expect(header["type"] as? String == "header")
            #expect(header["version"] as? Int == 1)
            #expect(header["format"] as? String == "cu8")
            #expect(header["sample_rate"] as? Int == 2_400_000)
            #expect(header["seed"] as? Int == 7)
            #expect(header["aircraft"] as? Int == 30)
            #expect(header["busy"] as? Bool == false)
            let messages = lines.filter { $0["type"] as? String == "message" }
            let states = lines.filter { $0["type"] as? String == "state" }
            #expect(messages.count > 10)
            #expect(states.count == 30)  // t = 0 only in 0.1 s
            var previous = -1.0
            for message in messages {
                let t = try #require(message["t"] as? Double)
                let sample = try #require(message["sample"] as? Int)
                #expect(t >= previous)
                previous = t
                #expect(abs(Double(sample) - t * 2_400_000) <= 1)
                let hex = try #require(message["hex"] as? String)
                #expect(hex.count == 14 || hex.count == 28)
                #expect((message["icao"] as? String)?.count == 6)
                #expect(message["snr_db"] is Double)
                #expect(message["overlap"] is Bool)
                #expect(message["df"] is Int)
            }
            for key in [
                "icao", "callsign", "category", "squawk", "lat", "lon", "alt_baro_ft", "alt_geo_ft",
                "ground_speed_kt", "track_deg", "vertical_rate_fpm", "on_ground"
            ] {
                #expect(states[0][key] != nil, "state without \(key)")
            }
            // Another seed, another recording.
            let c = folder.appendingPathComponent("c.cu8").path
            _ = try BinaryRunner.run(["simulate", "--duration", "0.1", "--aircraft", "30", "--seed", "8", "--out", c])
            #expect(bytesA != (try Data(contentsOf: URL(fileURLWithPath: c))))
        }

        @Test(arguments: [
            ("2.4M", 2_400_000), ("2400000", 2_400_000), ("2.4", 2_400_000), ("2.0M", 2_000_000),
            ("2000000", 2_000_000)
        ])
        func sampleRateSpellings(text: String, rate: Int) throws {
            let folder = try Self.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let path = folder.appendingPathComponent("r.cs16").path
            let result = try BinaryRunner.run([
                "simulate", "--out", path, "--duration", "0.01", "--aircraft", "2",
                "--sample-rate", text, "--format", "cs16"
            ])
            #expect(result.status == 0, "\(result.stderr)")
            let header = try #require(try Self.truthLines(path).first)
            #expect(header["sample_rate"] as? Int == rate)
            #expect(header["format"] as? String == "cs16")
            let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
            #expect(size == rate / 100 * 4)
        }

        @Test(arguments: [
            ["--sample-rate", "3M"], ["--format", "cu16"], ["--snr-min", "5"], ["--snr-min", "9", "--snr-max", "3"],
            ["--receiver", "north"], ["--duration", "-1"], ["--aircraft", "-3"]
        ])
        func badSettingsAreOneClearError(extra: [String]) throws {
            let folder = try Self.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let path = folder.appendingPathComponent("bad.cu8").path
            let result = try BinaryRunner.run(["simulate", "--out", path, "--duration", "0.01"] + extra)
            #expect(result.status == 64, "\(extra): \(result.stderr)")
            #expect(result.stderr.contains("Error"), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: path))
        }

        @Test func unwritableOutputIsAClearError() throws {
            let result = try BinaryRunner.run(["simulate", "--out", "/nonexistent-folder/x.cu8", "--duration", "0.01"])
            #expect(result.status == 1)
            #expect(result.stderr.contains("cannot write"), "\(result.stderr)")
        }

        @Test func cf32IsEightBytesPerSample() throws {
            let folder = try Self.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let path = folder.appendingPathComponent("f.cf32").path
            let result = try BinaryRunner.run(["simulate", "--out", path, "--duration", "0.01", "--format", "cf32"])
            #expect(result.status == 0)
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(data.count == 24_000 * 8)
            // Values are floats within ±1 with a noise rms of about 4/127.5.
            let floats = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
            #expect(floats.allSatisfy { abs($0) <= 1 })
            let rms = (floats.reduce(0) { $0 + Double($1) * Double($1) } / Double(floats.count)).squareRoot()
            #expect(rms > 0.025 && rms < 0.2)
        }
    }
}
