import Foundation
import TestSupport
import Testing

extension EndToEnd {
    /// The daemon replays a bundled recording; a client on the feed socket must see the
    /// aircraft where the recording's truth puts them, with consistent projection fields.
    @Suite(.tags(.slow)) struct FeedEndToEndTests {
        let sample = BinaryRunner.projectRoot.appendingPathComponent("Samples/quiet-sky.cu8").path

        /// The first true state of each aircraft in the sample's truth file.
        func truth() throws -> [String: [String: Any]] {
            let text = try String(contentsOfFile: sample + ".truth.jsonl", encoding: .utf8)
            var states: [String: [String: Any]] = [:]
            for line in text.split(separator: "\n") {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                if object["type"] as? String == "state", let icao = object["icao"] as? String, states[icao] == nil {
                    states[icao] = object
                }
            }
            return states
        }

        /// The aircraft that `demod | decode` resolves a position for in one pass of the sample.
        func positionedByDecoder() throws -> Set<String> {
            let frames = try BinaryRunner.run(["demod", sample])
            let decoded = try BinaryRunner.run(["decode", "--receiver", "52,4.4"], input: Data(frames.stdout.utf8))
            var icaos = Set<String>()
            for line in decoded.stdout.split(separator: "\n") {
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                if object?["lat"] != nil, let icao = object?["icao"] as? String { icaos.insert(icao) }
            }
            return icaos
        }

        @Test func clientSeesTheTrueSky() throws {
            let socket = FileManager.default.temporaryDirectory.appendingPathComponent(
                "aviator-e2e-\(UUID().uuidString.prefix(8)).sock"
            ).path
            let daemon = try Daemon([
                "--replay", sample, "--throttle", "--loop", "--receiver", "52,4.4",
                "--range-km", "300", "--frame-interval", "0.25", "--socket", socket
            ])
            defer { _ = daemon.stop() }
            let client = try BlockingSocket.connect(path: socket)
            let hello = try #require(client.nextObject())
            #expect(hello["type"] as? String == "hello")
            #expect(hello["source"] as? String == "replay")

            // Two seconds of frames: the recording loops, so every pair of position frames is seen.
            var last: [String: Any] = [:]
            var previousSeq = 0
            let until = Date().addingTimeInterval(2.5)
            while Date() < until, let frame = client.nextObject() {
                guard frame["type"] as? String == "frame" else { continue }
                let seq = try #require(frame["seq"] as? Int)
                if previousSeq > 0 { #expect(seq == previousSeq + 1, "frames arrive without gaps") }
                previousSeq = seq
                last = frame
            }
            let aircraft = try #require(last["aircraft"] as? [[String: Any]])
            let truth = try truth()
            let expected = try positionedByDecoder()
            let seen = Set(aircraft.compactMap { $0["lat"] is Double ? $0["icao"] as? String : nil })
            #expect(expected.count >= 5)
            #expect(seen.isSuperset(of: expected), "missing: \(expected.subtracting(seen))")

            for plane in aircraft {
                let icao = try #require(plane["icao"] as? String)
                let real = try #require(truth[icao], "\(icao) is not in the truth")
                guard let lat = plane["lat"] as? Double, let lon = plane["lon"] as? Double else { continue }
                #expect(abs(lat - (real["lat"] as! Double)) < 0.01, "\(icao) latitude")
                #expect(abs(lon - (real["lon"] as! Double)) < 0.01, "\(icao) longitude")
                if let altitude = plane["alt_baro_ft"] as? Int {
                    #expect(abs(altitude - (real["alt_baro_ft"] as! Int)) <= 50, "\(icao) altitude")
                }
                // Projection fields agree with the position (spherical estimate, 0.5% / 0.5°).
                let (distance, bearing) = Self.distanceAndBearing(from: (52, 4.4), to: (lat, lon))
                let groundKm = try #require(plane["ground_km"] as? Double)
                #expect(abs(groundKm - distance) <= max(0.05, distance * 0.005), "\(icao) ground_km")
                let azimuth = try #require(plane["azimuth_deg"] as? Double)
                if distance > 1 { #expect(Self.angle(azimuth, bearing) < 0.5, "\(icao) azimuth") }
                let x = try #require(plane["x"] as? Double)
                let y = try #require(plane["y"] as? Double)
                #expect(abs((x * x + y * y).squareRoot() * 300 - groundKm) < 0.1, "\(icao) x, y")
                if distance > 1 {
                    let drawn = atan2(x, y) * 180 / .pi
                    #expect(Self.angle(drawn, plane["bearing_deg"] as! Double) < 0.5, "\(icao) drawn bearing")
                }
            }
        }

        static func distanceAndBearing(from a: (Double, Double), to b: (Double, Double)) -> (Double, Double) {
            let r = Double.pi / 180
            let (lat1, lon1, lat2, lon2) = (a.0 * r, a.1 * r, b.0 * r, b.1 * r)
            let h =
                sin((lat2 - lat1) / 2) * sin((lat2 - lat1) / 2)
                + cos(lat1) * cos(lat2) * sin((lon2 - lon1) / 2) * sin((lon2 - lon1) / 2)
            let distance = 2 * 6371.0088 * asin(min(1, h.squareRoot()))
            let y = sin(lon2 - lon1) * cos(lat2)
            let x = cos(lat1) * sin(lat2) - sin(lat1) * cos(lat2) * cos(lon2 - lon1)
            return (distance, (atan2(y, x) / r + 360).truncatingRemainder(dividingBy: 360))
        }

        static func angle(_ a: Double, _ b: Double) -> Double {
            let d = abs(a - b).truncatingRemainder(dividingBy: 360)
            return min(d, 360 - d)
        }
    }
}
