import Foundation
import TestSupport
import Testing

extension EndToEnd {
    /// `make bench` places readsb's frames by the 12 MHz timestamps of its Beast dump
    /// (scripts/beast_to_avr.py): every frame readsb prints comes out once, and the
    /// timestamps put each frame where our own demodulator puts the same reply.
    @Suite(.tags(.slow)) struct ReadsbTimestampTests {
        @Test(.requires(.shared("peers/readsb"), .program("zstd"))) func readsbsDumpPlacesItsFramesWhereOursAre() throws
        {
            guard let readsb = ReadsbPeer.path() else { return }
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/zstd") else {
                SharedData.missing("zstd is not installed (make deps installs it)")
                return
            }
            let root = BinaryRunner.projectRoot
            let sample = root.appendingPathComponent("Samples/busy-airport.cu8").path
            let work = FileManager.default.temporaryDirectory.appendingPathComponent("readsb-dump-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: work) }

            let raw = try BinaryRunner.run(
                [
                    "--device-type", "ifile", "--ifile", sample, "--iformat", "UC8", "--raw",
                    "--dump-beast=\(work.path),3600"
                ], executable: readsb)
            let printed = raw.stdout.split(separator: "\n").filter { $0.hasPrefix("*") }
            try raw.stdout.write(to: work.appendingPathComponent("raw"), atomically: true, encoding: .utf8)
            let script = "cat \"$1\"/*.zst | zstd -qdc | python3 \"$2\" \"$1/raw\""
            let converted = try BinaryRunner.run(
                [
                    "-c", script, "convert", work.path,
                    root.appendingPathComponent("scripts/beast_to_avr.py").path
                ],
                executable: URL(fileURLWithPath: "/bin/bash"))
            #expect(converted.status == 0, "\(converted.stderr)")
            let readsbFrames = Self.frames(converted.stdout)
            // Every frame readsb printed, once; nearly all with a timestamp.
            #expect(readsbFrames.map(\.hex).sorted() == printed.map { $0.dropFirst().dropLast().uppercased() }.sorted())
            let timed = readsbFrames.filter { $0.ticks != nil }
            #expect(timed.count * 100 >= readsbFrames.count * 97, "\(timed.count) of \(readsbFrames.count) timed")
            #expect(printed.count > 500)

            // Our frames of the same sample: where a message occurs once in both, the two
            // timestamps differ by the same constant (each decoder's own reference point)
            // to within a sample (5 ticks at 2.4 MS/s) or two.
            let ours = Self.frames(try BinaryRunner.run(["demod", sample, "--mlat"]).stdout)
            let oursOnce = Self.once(ours)
            let readsbOnce = Self.once(timed)
            let differences = readsbOnce.compactMap { hex, ticks in oursOnce[hex].map { ticks - $0 } }.sorted()
            #expect(differences.count > 200, "\(differences.count) messages in common")
            guard let median = differences.dropFirst(differences.count / 2).first else { return }
            let placed = differences.filter { abs($0 - median) <= 10 }.count
            #expect(placed * 100 >= differences.count * 98, "\(placed) of \(differences.count) within 2 samples")
        }

        /// The frames of AVR lines, with their timestamp when the line has one.
        static func frames(_ text: String) -> [(ticks: Int?, hex: String)] {
            text.split(separator: "\n").compactMap { line in
                guard line.hasSuffix(";") else { return nil }
                if line.hasPrefix("@"), line.count > 14 {
                    let body = line.dropFirst().dropLast()
                    return (Int(body.prefix(12), radix: 16), String(body.dropFirst(12)).uppercased())
                }
                if line.hasPrefix("*") { return (nil, String(line.dropFirst().dropLast()).uppercased()) }
                return nil
            }
        }

        /// The timestamp of each message that occurs exactly once among `frames`.
        static func once(_ frames: [(ticks: Int?, hex: String)]) -> [String: Int] {
            var counts: [String: Int] = [:]
            for frame in frames { counts[frame.hex, default: 0] += 1 }
            var result: [String: Int] = [:]
            for frame in frames where counts[frame.hex] == 1 { result[frame.hex] = frame.ticks }
            return result
        }
    }
}
