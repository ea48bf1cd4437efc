import Foundation
import TestSupport
import Testing

extension EndToEnd {
    /// The aircraft database's fields in aircraft.json against readsb's own: readsb reads our
    /// Beast output with `--db-file` on the same file, and every aircraft's `r`, `t`, `desc`,
    /// `ownOp`, `year` and `dbFlags` must be what readsb writes (docs/identity.md).
    @Suite(.tags(.slow)) struct DatabaseFieldsInteropTests {
        /// The fields compared, as aircraft.json names them.
        static let fields = ["r", "t", "desc", "ownOp", "year"]

        /// Both aircraft.json files, aircraft by aircraft.
        struct Comparison {
            /// Aircraft in both files.
            var aircraft = 0
            /// Values that were there and equal, by field (`dbFlags` included).
            var equal: [String: Int] = [:]
            /// Aircraft whose `dbFlags` readsb has with the military bit that their row does not
            /// set: readsb marks the addresses of its own list of military ranges, which is no
            /// part of the database.
            var militaryByReadsbRanges: [String] = []
            /// Every other difference.
            var differences: [String] = []

            /// Compares `ours` with `theirs` (readsb's) for the aircraft both have.
            init(ours: AircraftFile, theirs: AircraftFile) {
                for hex in Set(ours.aircraft.keys).intersection(theirs.aircraft.keys).sorted() {
                    guard let mine = ours.aircraft[hex], let peer = theirs.aircraft[hex] else { continue }
                    aircraft += 1
                    for field in DatabaseFieldsInteropTests.fields {
                        let value = mine[field] as? String
                        let peerValue = peer[field] as? String
                        if value != peerValue {
                            differences.append(
                                "\(hex) \(field): ours \(value ?? "none"), readsb \(peerValue ?? "none")")
                        } else if value != nil {
                            equal[field, default: 0] += 1
                        }
                    }
                    let flags = mine["dbFlags"] as? Int ?? 0
                    let peerFlags = peer["dbFlags"] as? Int ?? 0
                    if flags == peerFlags {
                        if flags != 0 { equal["dbFlags", default: 0] += 1 }
                    } else if flags & 1 == 0, peerFlags == flags | 1 {
                        militaryByReadsbRanges.append(hex)
                    } else {
                        differences.append("\(hex) dbFlags: ours \(flags), readsb \(peerFlags)")
                    }
                }
            }
        }

        /// Our daemon replays the busy sample with `--db-file` and a Beast output; readsb reads
        /// that output with `--db-file` (and `--db-file-lt`, which adds `desc`, `ownOp` and
        /// `year`) on the same file. After both have loaded it, the six fields of every
        /// aircraft both list must agree.
        @Test(.requires(.shared("peers/readsb")), .timeLimit(.minutes(2)))
        func readsbWritesTheDatabaseFieldsAsWeDo() throws {
            guard let peerPath = ReadsbPeer.path() else { return }
            let (folder, ours, theirs) = try Dump1090InteropTests.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let recording = BinaryRunner.projectRoot.appendingPathComponent("Samples/busy-airport.cu8")
            let addresses = try TestAircraftDatabase.addresses(ofTruthOf: recording)
            try #require(addresses.count >= 100)
            let database = folder.appendingPathComponent("aircraft.csv.gz")
            try TestAircraftDatabase.writeCompressed(TestAircraftDatabase.text(addresses: addresses), to: database)

            let beastPort = BlockingSocket.freePorts(1)[0]
            let daemon = try Daemon([
                "--replay", recording.path, "--throttle", "--loop", "--receiver", "52.3,4.75", "--db-file",
                database.path, "--beast-out", String(beastPort), "--json-dir", ours.path
            ])
            defer { _ = daemon.stop() }
            try #require(daemon.waitFor("Beast output on 127.0.0.1:\(beastPort)"), "\(daemon.stderr)")
            try #require(daemon.waitFor("aircraft database", timeout: 30), "\(daemon.stderr)")
            // Every row read: the header left out, the rows with fields after the seventh kept.
            #expect(daemon.stderr.contains(": \(addresses.count) aircraft in"), "\(daemon.stderr)")
            #expect(!daemon.stderr.contains("skipped:"), "\(daemon.stderr)")
            let peer = try ReadsbPeer(
                path: peerPath, beastPort: beastPort, receiver: ReadsbInteropTests.receiver, jsonDirectory: theirs,
                extra: ["--db-file=\(database.path)", "--db-file-lt"])
            defer { peer.stop() }
            try #require(daemon.waitFor("Beast output: client connected"), "readsb did not connect: \(daemon.stderr)")

            let comparison = try #require(Self.compareOnceLoaded(ours: ours, theirs: theirs))
            print(
                "database fields: \(comparison.aircraft) aircraft compared, equal \(comparison.equal.sorted { $0.key < $1.key }), "
                    + "\(comparison.differences.count) differences, military bit from readsb's own ranges on "
                    + "\(comparison.militaryByReadsbRanges.count): \(comparison.militaryByReadsbRanges)")
            #expect(comparison.aircraft >= 100)
            #expect(comparison.differences.isEmpty, "\(comparison.differences.prefix(20))")
            // Not a comparison of empty files: most aircraft have each field.
            for field in Self.fields + ["dbFlags"] {
                #expect(comparison.equal[field, default: 0] >= comparison.aircraft / 2, "\(field)")
            }
            // readsb's military ranges hold a few of the sample's addresses (France's, Germany's,
            // Austria's, Belgium's), not most.
            #expect(comparison.militaryByReadsbRanges.count <= comparison.aircraft / 5)
        }

        /// Reads both aircraft.json files until readsb's shows the database (its loading
        /// thread finishes a second or two after it starts) and both list the same aircraft
        /// with their rows, then compares them; nil if that did not happen within 30 s.
        static func compareOnceLoaded(ours: URL, theirs: URL) -> Comparison? {
            let deadline = Date().addingTimeInterval(30)
            var last: Comparison?
            while Date() < deadline {
                Thread.sleep(forTimeInterval: 1)
                guard let mine = AircraftFile(ours.appendingPathComponent("aircraft.json")),
                    let peer = AircraftFile(theirs.appendingPathComponent("aircraft.json"))
                else { continue }
                let loaded = peer.aircraft.values.filter { $0["r"] != nil }.count
                let comparison = Comparison(ours: mine, theirs: peer)
                last = comparison
                if loaded >= 100, comparison.aircraft >= 100, comparison.differences.isEmpty { return comparison }
                // Give a late aircraft (not yet in one file) or a late database one more look.
                if loaded >= 100, Date().addingTimeInterval(20) > deadline { return comparison }
            }
            return last
        }
    }
}
