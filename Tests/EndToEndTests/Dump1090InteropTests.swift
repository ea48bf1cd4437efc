import Foundation
import TestSupport
import Testing

extension EndToEnd {
    /// Interoperability with an established decoder written by others: dump1090-mutability reads
    /// our Beast output and tracks the same aircraft we do, and we read its Beast output and
    /// track the same aircraft it does. Compared through both programs' aircraft.json.
    @Suite(.tags(.slow)) struct Dump1090InteropTests {
        static let sample = BinaryRunner.projectRoot.appendingPathComponent("Samples/busy-airport.cu8")
        static let receiver = (52.3, 4.75)

        static func temporaryFolder() throws -> (root: URL, ours: URL, theirs: URL) {
            let root = FileManager.default.temporaryDirectory.appendingPathComponent(
                "interop-\(UUID().uuidString.prefix(8))")
            let ours = root.appendingPathComponent("ours")
            let theirs = root.appendingPathComponent("theirs")
            try FileManager.default.createDirectory(at: ours, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: theirs, withIntermediateDirectories: true)
            return (root, ours, theirs)
        }

        /// Both sides must list the same aircraft, and agree on what both know about each.
        static func expectSameSky(
            ours: AircraftFile, theirs: AircraftFile, sourceLocation: SourceLocation = #_sourceLocation
        ) {
            let ourSet = ours.confirmed
            let theirSet = theirs.confirmed
            #expect(
                ourSet == theirSet,
                "only ours: \(ourSet.subtracting(theirSet).sorted()); only dump1090's: \(theirSet.subtracting(ourSet).sorted())",
                sourceLocation: sourceLocation)
            let common = ourSet.intersection(theirSet)
            #expect(common.count >= 100, "only \(common.count) aircraft in common", sourceLocation: sourceLocation)

            var positions = 0
            var altitudes = 0
            var callsigns = 0
            for hex in common.sorted() {
                let mine = ours.aircraft[hex]!
                let peer = theirs.aircraft[hex]!
                if let lat = mine["lat"] as? Double, let lon = mine["lon"] as? Double,
                    let peerLat = peer["lat"] as? Double, let peerLon = peer["lon"] as? Double
                {
                    positions += 1
                    #expect(
                        abs(lat - peerLat) < 0.01 && abs(lon - peerLon) < 0.01,
                        "\(hex): ours \(lat), \(lon); dump1090 \(peerLat), \(peerLon)", sourceLocation: sourceLocation)
                }
                // dump1090-mutability calls the pressure altitude "altitude" (feet, or "ground").
                switch (mine["alt_baro"], peer["altitude"]) {
                case (let mineFeet as Int, let peerFeet as Int):
                    altitudes += 1
                    // The two may hold altitudes from different replies of the same second.
                    #expect(
                        abs(mineFeet - peerFeet) <= 100, "\(hex) altitude \(mineFeet) vs \(peerFeet)",
                        sourceLocation: sourceLocation)
                case (let mineGround as String, let peerGround as String):
                    altitudes += 1
                    #expect(mineGround == peerGround, sourceLocation: sourceLocation)
                default:
                    break
                }
                if let flight = mine["flight"] as? String, let peerFlight = peer["flight"] as? String {
                    callsigns += 1
                    #expect(
                        flight.trimmingCharacters(in: .whitespaces) == peerFlight.trimmingCharacters(in: .whitespaces),
                        "\(hex) callsign", sourceLocation: sourceLocation)
                }
                if let squawk = mine["squawk"] as? String, let peerSquawk = peer["squawk"] as? String {
                    #expect(squawk == peerSquawk, "\(hex) squawk", sourceLocation: sourceLocation)
                }
            }
            #expect(positions >= 20, "only \(positions) positions to compare", sourceLocation: sourceLocation)
            #expect(altitudes >= 50, "only \(altitudes) altitudes to compare", sourceLocation: sourceLocation)
            #expect(callsigns >= 20, "only \(callsigns) callsigns to compare", sourceLocation: sourceLocation)
            print(
                "interop: \(common.count) aircraft in common, \(positions) positions, \(altitudes) altitudes, \(callsigns) callsigns compared"
            )
        }

        /// dump1090 runs network-only; the test relays our Beast output into its Beast input port
        /// (it only listens there), and its aircraft.json must list what ours does.
        @Test(.requires(.program(Dump1090Peer.path)), .timeLimit(.minutes(1)))
        func dump1090TracksTheAircraftOfOurBeastOutput() throws {
            guard Dump1090Peer.available() else { return }
            let folders = try Self.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folders.root) }
            let ports = BlockingSocket.freePorts(6)
            let peer = try Dump1090Peer(
                ["--net-only"], ports: Array(ports[0..<5]), receiver: Self.receiver,
                jsonDirectory: folders.theirs)
            defer { peer.stop() }
            let beastOut = ports[5]
            let socket = folders.root.appendingPathComponent("feed.sock").path
            let daemon = try Daemon([
                "--replay", Self.sample.path, "--throttle", "--loop", "--receiver", "52.3,4.75",
                "--beast-out", String(beastOut), "--json-dir", folders.ours.path, "--socket", socket
            ])
            defer { _ = daemon.stop() }
            try #require(daemon.waitFor("Beast output on 127.0.0.1:\(beastOut)"), "\(daemon.stderr)")

            let sink = try BlockingSocket.connect(port: peer.beastInPort)
            let source = try BlockingSocket.connect(port: beastOut)
            // Three seconds: every frame of the 0.8 s recording passes several times. On a
            // loaded machine the replay runs behind real time, so the relay goes on (up to 20 s)
            // until that much has passed.
            let copied = BlockingSocket.relay(from: source, to: sink, for: 3, minimumBytes: 50_000, limit: 20)
            #expect(copied > 50_000, "relayed only \(copied) bytes")
            let stopped = daemon.stop()
            #expect(stopped.status == 0, "\(daemon.stderr)")

            let ours = try #require(AircraftFile(folders.ours.appendingPathComponent("aircraft.json")))
            let theirs = try #require(AircraftFile.settled(in: folders.theirs), "dump1090 wrote no aircraft.json")
            Self.expectSameSky(ours: ours, theirs: theirs)
        }

        /// dump1090 demodulates a recording (fed on its standard input at real-time pace, so it
        /// keeps serving after the last sample) and we read its Beast output with --beast-in:
        /// our aircraft.json must list what its does.
        @Test(.requires(.program(Dump1090Peer.path)), .timeLimit(.minutes(1)))
        func weTrackTheAircraftOfDump1090sBeastOutput() throws {
            guard Dump1090Peer.available() else { return }
            let folders = try Self.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folders.root) }
            // `--ifile -` with the pipe held open: a file of 0.8 s would end, and dump1090 exit,
            // before its first aircraft.json.
            let peer = try Dump1090Peer(
                ["--ifile", "-", "--iformat", "UC8", "--throttle", "--net"],
                ports: BlockingSocket.freePorts(5), receiver: Self.receiver, jsonDirectory: folders.theirs)
            defer { peer.stop() }
            _ = try BlockingSocket.connect(port: peer.beastOutPort)  // listening now

            let socket = folders.root.appendingPathComponent("feed.sock").path
            let daemon = try Daemon([
                "--beast-in", "127.0.0.1:\(peer.beastOutPort)", "--receiver", "52.3,4.75",
                "--json-dir", folders.ours.path, "--socket", socket
            ])
            defer { _ = daemon.stop() }
            try #require(daemon.waitFor(": connected"), "\(daemon.stderr)")
            // dump1090 takes new clients from its main loop, a moment after the connection is made:
            // give it that moment so the first frames reach us too.
            Thread.sleep(forTimeInterval: 1)

            let recording = try Data(contentsOf: Self.sample)
            let writer = peer.input.fileHandleForWriting
            let written = DispatchSemaphore(value: 0)
            nonisolated(unsafe) var writeError: (any Error)?
            Thread {
                do { try writer.write(contentsOf: recording) } catch { writeError = error }
                written.signal()
            }.start()
            #expect(written.wait(timeout: .now() + 15) == .success, "dump1090 stopped reading its input")
            #expect(writeError == nil)

            let theirs = try #require(AircraftFile.settled(in: folders.theirs), "dump1090 wrote no aircraft.json")
            let ours = try #require(AircraftFile.settled(in: folders.ours), "we wrote no aircraft.json")
            Self.expectSameSky(ours: ours, theirs: theirs)
            #expect(daemon.stop().status == 0, "\(daemon.stderr)")
        }
    }
}
