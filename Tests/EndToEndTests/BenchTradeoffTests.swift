import Foundation
import Testing

/// scripts/bench_tradeoff.py, which `make bench` uses to show the demodulator's targets under
/// several configurations side by side: each column is judged on its own streams, and the CPU
/// target on readsb's time over that configuration's own, run pair by run pair.
@Suite struct BenchTradeoffTests {
    /// One configuration's streams: the sweep with `ours` found per bucket, busy and dense
    /// skies with `falseFrames` on the dense one, and the 2.0 MS/s sweep.
    static func streams(ours: [Int], falseFrames: Int) -> [String: [String: Any]] {
        let sky: [String: [Int]] = ["all": [80, 100, 0, 1], "overlapping": [10, 20, 0, 0]]
        let peerSky: [String: [Int]] = ["all": [60, 100, 0, 1], "overlapping": [5, 20, 0, 0]]
        let readsb = BenchTargetsTests.sweep([20, 60, 95, 98, 99], missed: [0, 1, 0, 0, 0])
        return [
            "sweep24": BenchTargetsTests.result(
                label: "sweep 2.4", busy: false,
                decoders: [
                    "aviator-adsb": (BenchTargetsTests.sweep(ours), 0), "readsb": (readsb, 3)
                ]),
            "busy24": BenchTargetsTests.result(
                label: "busy 2.4", busy: true,
                decoders: [
                    "aviator-adsb": (sky, 0), "readsb": (peerSky, 9)
                ]),
            "dense24": BenchTargetsTests.result(
                label: "dense 2.4", busy: true,
                decoders: [
                    "aviator-adsb": (sky, falseFrames), "readsb": (peerSky, 9)
                ]),
            "sweep20": BenchTargetsTests.result(
                label: "sweep 2.0", busy: false,
                decoders: [
                    "aviator-adsb": (BenchTargetsTests.sweep(ours), 0)
                ])
        ]
    }

    /// Runs the script (markdown) on two configurations: "thorough", slow and clean, and
    /// "lean", as fast as readsb in every run pair but one and with a false frame. Returns
    /// its exit status and lines.
    static func table(times: [String: [Double]]) throws -> (status: Int32, lines: [String]) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tradeoff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let timesFile = folder.appendingPathComponent("times.json")
        try JSONSerialization.data(withJSONObject: times).write(to: timesFile)
        var arguments = [
            BinaryRunner.projectRoot.appendingPathComponent("scripts/bench_tradeoff.py").path,
            "--markdown", "--cpu-times", timesFile.path
        ]
        let configurations: [(label: String, key: String, streams: [String: [String: Any]])] = [
            ("thorough", "slow", streams(ours: [40, 95, 99, 100, 100], falseFrames: 0)),
            ("lean", "fast", streams(ours: [25, 70, 96, 99, 100], falseFrames: 1))
        ]
        for configuration in configurations {
            arguments += ["--configuration", "\(configuration.label)=\(configuration.key)"]
            for (name, stream) in configuration.streams {
                let file = folder.appendingPathComponent("\(configuration.key)-\(name).json")
                try JSONSerialization.data(withJSONObject: stream).write(to: file)
                arguments.append("\(name)=\(file.path)")
            }
        }
        let run = Process()
        run.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        run.arguments = ["python3"] + arguments
        let output = Pipe()
        run.standardOutput = output
        run.standardError = FileHandle.nullDevice
        try run.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        run.waitUntilExit()
        return (run.terminationStatus, text.split(separator: "\n").map(String.init))
    }

    /// The cells of the row whose target starts `target`, one per configuration.
    static func cells(_ lines: [String], _ target: String) -> [String] {
        guard let line = lines.first(where: { $0.hasPrefix("| \(target)") }) else { return [] }
        return line.split(separator: "|").dropFirst().map { $0.trimmingCharacters(in: .whitespaces) }
    }

    @Test func eachConfigurationIsJudgedOnItsOwnFigures() throws {
        // readsb 0.45 s a run; the thorough configuration 0.9 s (ratio 0.5), the lean one
        // 0.40, 0.42 and 0.50 s (ratios 1.125, 1.07 and 0.9: median 1.07).
        let (status, lines) = try Self.table(times: [
            "readsb": [0.45, 0.45, 0.45], "slow": [0.9, 0.9, 0.9],
            "fast": [0.40, 0.42, 0.50]
        ])
        #expect(status == 0)
        #expect(lines.first == "| target | thorough | lean |", "\(lines)")
        let cpu = Self.cells(lines, "CPU")
        #expect(cpu == ["no: 0.50", "yes: 1.07"], "\(lines)")
        let clean = Self.cells(lines, "no false frame")
        #expect(clean.count == 2 && clean[0] == "yes: none" && clean[1].hasPrefix("no: dense 2.4: 1"), "\(lines)")
        // The lean sweep's 25 % at 3-6 dB is 1.25 times readsb's 20 %: too little there alone.
        let low = Self.cells(lines, "3-6 dB yield")
        #expect(
            low.count == 2 && low[0].hasPrefix("yes") && low[1] == "no: 25.0 % against 20.0 % (1.2 times)",
            "\(lines)")
        // Each configuration's 2.0 MS/s sweep is its own (here the same as its 2.4 MS/s one).
        let gap = Self.cells(lines, "2.0 MS/s")
        #expect(gap.allSatisfy { $0.hasPrefix("yes") }, "\(lines)")
        // readsb's missed 6-9 dB frame is 1 of its 60 (1.7 %) for both.
        #expect(Self.cells(lines, "readsb's frames").allSatisfy { $0.hasPrefix("yes: worst 1.7 %") }, "\(lines)")
    }

    @Test func missingTimesAreAnErrorNotATable() throws {
        let (status, lines) = try Self.table(times: ["readsb": [0.45], "slow": [0.9]])
        #expect(status == 2)
        #expect(lines.isEmpty)
    }
}
