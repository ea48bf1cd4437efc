import Foundation
import Testing

/// scripts/bench_targets.py, which `make bench` uses to say which of the demodulator's targets
/// a run meets: each verdict follows its figure.
@Suite struct BenchTargetsTests {
    /// A `yield.py --json` result: per decoder, rows of (found, messages, only this decoder,
    /// found but not by aviator-adsb) and false frames.
    static func result(
        label: String, busy: Bool,
        decoders: [String: (rows: [String: [Int]], false: Int)]
    ) -> [String: Any] {
        [
            "label": label, "busy": busy, "rate": 2_400_000,
            "decoders": decoders.mapValues { ["rows": $0.rows, "false": $0.false] as [String: Any] }
        ]
    }

    /// Sweep rows: every bucket 100 messages, `found` of them found, `missed` found by the
    /// decoder and not by aviator-adsb.
    static func sweep(_ found: [Int], missed: [Int] = [0, 0, 0, 0, 0]) -> [String: [Int]] {
        let buckets = ["3-6 dB", "6-9 dB", "9-12 dB", "12-16 dB", "16-25 dB"]
        var rows: [String: [Int]] = [:]
        for (index, bucket) in buckets.enumerated() { rows[bucket] = [found[index], 100, 0, missed[index]] }
        rows["all"] = [found.reduce(0, +), 500, 0, missed.reduce(0, +)]
        return rows
    }

    /// Runs the script on the streams, CPU ratio and daemon figures given; returns its lines
    /// by target.
    /// `low`: the low stream's 1,000 messages at 3-6 dB, how many of them each decoder found
    /// and how many of readsb's aviator-adsb missed (nil: no low stream). `daemonPeer`:
    /// readsb's daemon on the same sky (nil: not measured).
    static func verdicts(
        ours: [Int], readsb: [Int], missed: [Int], ours20: [Int], denseFalse: Int,
        cpu: Double, daemonCPU: Double, daemonMB: Int,
        daemonPeer: (cpu: Double, mb: Int)? = nil, ownMB: (ours: Int, readsb: Int)? = nil,
        low: (ours: Int, readsb: Int, missed: Int)? = nil
    ) throws -> [String] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("targets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sky: [String: [Int]] = ["all": [80, 100, 0, 1], "overlapping": [10, 20, 0, 0]]
        var streams: [String: [String: Any]] = [
            "sweep24": result(
                label: "sweep 2.4", busy: false,
                decoders: [
                    "aviator-adsb": (sweep(ours), 0), "readsb": (sweep(readsb, missed: missed), 3)
                ]),
            "busy24": result(
                label: "busy 2.4", busy: true,
                decoders: [
                    "aviator-adsb": (sky, 0), "readsb": (["all": [70, 100, 0, 1], "overlapping": [5, 20, 0, 0]], 9)
                ]),
            "dense24": result(
                label: "dense 2.4", busy: true,
                decoders: [
                    "aviator-adsb": (sky, denseFalse),
                    "readsb": (["all": [60, 100, 0, 1], "overlapping": [5, 20, 0, 0]], 9)
                ]),
            "sweep20": result(label: "sweep 2.0", busy: false, decoders: ["aviator-adsb": (sweep(ours20), 0)])
        ]
        if let low {
            func rows(_ found: Int, _ missed: Int) -> [String: [Int]] {
                ["3-6 dB": [found, 1000, 0, missed], "all": [found, 1000, 0, missed]]
            }
            streams["low24"] = result(
                label: "low 2.4", busy: false,
                decoders: [
                    "aviator-adsb": (rows(low.ours, 0), 0), "readsb": (rows(low.readsb, low.missed), 40)
                ])
        }
        var arguments = [BinaryRunner.projectRoot.appendingPathComponent("scripts/bench_targets.py").path]
        for (name, stream) in streams {
            let file = folder.appendingPathComponent("\(name).json")
            try JSONSerialization.data(withJSONObject: stream).write(to: file)
            arguments.append("\(name)=\(file.path)")
        }
        let cpuFile = folder.appendingPathComponent("cpu.json")
        try JSONSerialization.data(withJSONObject: ["aviator-adsb": 1.0, "readsb": cpu]).write(to: cpuFile)
        let daemonFile = folder.appendingPathComponent("daemon.json")
        var daemon: [String: Any] = [
            "cpu_percent": daemonCPU, "cpu_low": daemonCPU - 0.2, "cpu_high": daemonCPU + 0.3, "runs": 3,
            "peak_rss_mb": daemonMB
        ]
        if let daemonPeer {
            daemon["readsb_cpu_percent"] = daemonPeer.cpu
            daemon["readsb_peak_rss_mb"] = daemonPeer.mb
        }
        if let ownMB {
            daemon["peak_anon_mb"] = ownMB.ours
            daemon["readsb_peak_anon_mb"] = ownMB.readsb
        }
        try JSONSerialization.data(withJSONObject: daemon).write(to: daemonFile)
        arguments += ["--cpu", cpuFile.path, "--daemon", daemonFile.path]
        let run = Process()
        run.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        run.arguments = ["python3"] + arguments
        let output = Pipe()
        run.standardOutput = output
        try run.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        run.waitUntilExit()
        #expect(run.terminationStatus == 0)
        return text.split(separator: "\n").map(String.init)
    }

    /// Whether the line of the target starting `target` says it is met.
    static func met(_ lines: [String], _ target: String) -> Bool? {
        guard let line = lines.first(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix(target) }) else {
            return nil
        }
        return !line.contains("NOT MET")
    }

    /// How each target's line starts.
    static let targets = [
        "yield at least", "3-6 dB yield", "readsb's frames", "no false frame", "2.0 MS/s", "CPU",
        "daemon on a 300-aircraft sky under 5 %", "daemon on a 300-aircraft sky under 40 MB"
    ]

    @Test func everyTargetMet() throws {
        let lines = try Self.verdicts(
            ours: [40, 95, 99, 100, 100], readsb: [20, 60, 95, 98, 99],
            missed: [0, 1, 1, 0, 0], ours20: [35, 90, 98, 100, 100], denseFalse: 0, cpu: 1.1,
            daemonCPU: 4.2, daemonMB: 30)
        #expect(lines.count == 8, "\(lines)")
        for target in Self.targets {
            #expect(Self.met(lines, target) == true, "\(target): \(lines)")
        }
    }

    @Test func eachTargetMissedOnItsOwnFigure() throws {
        // 6-9 dB below readsb; 3-6 dB only 1.2 times readsb's; 3 of readsb's 12-16 dB frames
        // missed (3 %); two false frames on the dense sky; 2.0 MS/s 11 points down at 9-12 dB;
        // CPU 0.4; the daemon at 5.1 % and 41 MB.
        let lines = try Self.verdicts(
            ours: [24, 59, 99, 100, 100], readsb: [20, 60, 95, 98, 99],
            missed: [0, 0, 0, 3, 0], ours20: [20, 55, 88, 100, 100], denseFalse: 2, cpu: 0.4,
            daemonCPU: 5.1, daemonMB: 41)
        for target in Self.targets {
            #expect(Self.met(lines, target) == false, "\(target): \(lines)")
        }
        #expect(lines.contains { $0.contains("dense 2.4: 2") })
        #expect(lines.contains { $0.contains("sweep 6-9 dB") && $0.contains("-1.0 points") })
    }

    @Test func theDaemonsFiguresStandBesideReadsbs() throws {
        // readsb's daemon measured in the same runs shows beside ours; the targets themselves
        // are ours alone (5.1 % misses the CPU target though readsb took more).
        let lines = try Self.verdicts(
            ours: [40, 95, 99, 100, 100], readsb: [20, 60, 95, 98, 99],
            missed: [0, 1, 1, 0, 0], ours20: [35, 90, 98, 100, 100], denseFalse: 0, cpu: 1.1,
            daemonCPU: 5.1, daemonMB: 30, daemonPeer: (cpu: 6.04, mb: 17))
        #expect(lines.contains { $0.contains("5.1 % (median of 3 runs, 4.9 % to 5.4 %; readsb 6.0 %)") }, "\(lines)")
        #expect(lines.contains { $0.contains("30 MB at its peak (readsb 17 MB)") }, "\(lines)")
        #expect(Self.met(lines, "daemon on a 300-aircraft sky under 5 %") == false)
        #expect(Self.met(lines, "daemon on a 300-aircraft sky under 40 MB") == true)
        // Without readsb's figures the rows name ours alone.
        let alone = try Self.verdicts(
            ours: [40, 95, 99, 100, 100], readsb: [20, 60, 95, 98, 99],
            missed: [0, 1, 1, 0, 0], ours20: [35, 90, 98, 100, 100], denseFalse: 0, cpu: 1.1,
            daemonCPU: 5.1, daemonMB: 30)
        #expect(!alone.contains { $0.contains("daemon") && $0.contains("readsb") }, "\(alone)")
        // Each process's own memory, when measured, stands beside its resident size; the
        // target is still judged on the resident size.
        let own = try Self.verdicts(
            ours: [40, 95, 99, 100, 100], readsb: [20, 60, 95, 98, 99],
            missed: [0, 1, 1, 0, 0], ours20: [35, 90, 98, 100, 100], denseFalse: 0, cpu: 1.1,
            daemonCPU: 5.1, daemonMB: 41, daemonPeer: (cpu: 6.04, mb: 17),
            ownMB: (ours: 10, readsb: 14))
        #expect(
            own.contains { $0.contains("41 MB at its peak, 10 MB its own (readsb 17 MB, 14 MB its own)") }, "\(own)")
        #expect(Self.met(own, "daemon on a 300-aircraft sky under 40 MB") == false)
    }

    @Test func theLowStreamJoinsTheSweepsLowestBucket() throws {
        // The sweep alone meets all three 3-6 dB targets. With the low stream: 5 of readsb's
        // 50 frames there missed (with the sweep's 20: 5 of 70, 7.1 %); together 340 of
        // 1,100 against 70 of 1,100 (4.9 times).
        let sweep = (ours: [40, 95, 99, 100, 100], readsb: [20, 60, 95, 98, 99])
        let alone = try Self.verdicts(
            ours: sweep.ours, readsb: sweep.readsb, missed: [0, 0, 0, 0, 0],
            ours20: [35, 90, 98, 100, 100], denseFalse: 0, cpu: 1.1,
            daemonCPU: 4.2, daemonMB: 30)
        #expect(Self.met(alone, "readsb's frames") == true, "\(alone)")
        let joined = try Self.verdicts(
            ours: sweep.ours, readsb: sweep.readsb, missed: [0, 0, 0, 0, 0],
            ours20: [35, 90, 98, 100, 100], denseFalse: 0, cpu: 1.1,
            daemonCPU: 4.2, daemonMB: 30, low: (300, 50, 5))
        #expect(Self.met(joined, "readsb's frames") == false, "\(joined)")
        #expect(joined.contains { $0.contains("5 of 70 frames, sweep and low stream 3-6 dB") }, "\(joined)")
        #expect(joined.contains { $0.contains("30.9 % against 6.4 % (4.9 times)") }, "\(joined)")
        #expect(Self.met(joined, "3-6 dB yield") == true)
        // Fewer than readsb's at 3-6 dB once the low stream counts: the first target's figure.
        let behind = try Self.verdicts(
            ours: sweep.ours, readsb: sweep.readsb, missed: [0, 0, 0, 0, 0],
            ours20: [35, 90, 98, 100, 100], denseFalse: 0, cpu: 1.1,
            daemonCPU: 4.2, daemonMB: 30, low: (10, 200, 0))
        #expect(Self.met(behind, "yield at least") == false, "\(behind)")
        #expect(behind.contains { $0.contains("sweep and low stream 3-6 dB") })
        #expect(Self.met(behind, "no false frame") == true)
    }
}
