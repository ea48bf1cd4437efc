import Foundation
import TestSupport
import Testing

/// `--route-api` against a stand-in route service: the feed's aircraft gain their origin and
/// destination, and nothing but the callsign leaves the machine.
@Suite(.serialized) struct RouteEndToEndTests {
    @Test func aircraftGainTheirRouteAndOnlyCallsignsAreSent() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "aviator-routes-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let portFile = folder.appendingPathComponent("port").path
        let requestLog = folder.appendingPathComponent("requests.jsonl").path
        let service = Process()
        service.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // Its output goes nowhere: a child that outlived the test must not hold the test
        // runner's output open.
        service.standardOutput = FileHandle.nullDevice
        service.standardError = FileHandle.nullDevice
        service.arguments = [
            "python3", BinaryRunner.projectRoot.appendingPathComponent("Tests/Fixtures/fake_route_server.py").path,
            portFile, requestLog
        ]
        try service.run()
        defer { service.terminate() }
        let started = Date().addingTimeInterval(10)
        while (try? String(contentsOfFile: portFile, encoding: .utf8)).flatMap({ Int($0) }) == nil, Date() < started {
            Thread.sleep(forTimeInterval: 0.05)
        }
        let port = try #require((try? String(contentsOfFile: portFile, encoding: .utf8)).flatMap { Int($0) })

        let sample = BinaryRunner.projectRoot.appendingPathComponent("Samples/busy-airport.cu8").path
        let socket = "/tmp/aviator-routes-\(UUID().uuidString.prefix(8)).sock"
        let daemon = try Daemon([
            "--replay", sample, "--throttle", "--loop", "--receiver", "52.3,4.75", "--socket", socket,
            "--route-api", "http://127.0.0.1:\(port)/api/v0", "--range-km", "400"
        ])
        defer { _ = daemon.stop() }
        #expect(daemon.waitFor("routes from 127.0.0.1"))

        // The stand-in service knows a route for each callsign ending in an even digit. An
        // aircraft heard a moment ago may still be waiting for its answer, so frames are read
        // until one has a route for every aircraft whose route the service knows (and at
        // least one such aircraft).
        func routeKnown(_ plane: [String: Any]) -> Bool {
            (plane["callsign"] as? String).flatMap { $0.last }.flatMap { Int(String($0)) }.map { $0 % 2 == 0 } ?? false
        }
        let feed = try BlockingSocket.connect(path: socket)
        var text = ""
        var withRoute: [[String: Any]] = []
        var withoutRoute: [[String: Any]] = []
        var settled = false
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, !settled, let bytes = feed.read() {
            text += String(decoding: bytes, as: UTF8.self)
            for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            where line.contains("\"type\":\"frame\"") {
                guard let frame = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                    let aircraft = frame["aircraft"] as? [[String: Any]]
                else { continue }
                withRoute = aircraft.filter { $0["route"] is [String: Any] }
                withoutRoute = aircraft.filter {
                    ($0["callsign"] as? String).map { !$0.isEmpty } == true && $0["route"] is NSNull
                }
                settled = !withRoute.isEmpty && !withoutRoute.contains(where: routeKnown)
            }
            if let last = text.lastIndex(of: "\n") { text = String(text[text.index(after: last)...]) }
        }
        #expect(!withRoute.isEmpty, "no aircraft gained a route")
        for plane in withRoute {
            let callsign = try #require(plane["callsign"] as? String)
            #expect(routeKnown(plane), "\(callsign) got a route it has not")
            let route = try #require(plane["route"] as? [String: Any])
            let origin = try #require(route["origin"] as? [String: Any])
            let destination = try #require(route["destination"] as? [String: Any])
            #expect(origin["iata"] as? String == "AMS")
            #expect(origin["icao"] as? String == "EHAM")
            #expect(destination["name"] as? String == "London Heathrow Airport")
        }
        #expect(
            settled,
            "no frame had every known route; still without one: \(withoutRoute.filter(routeKnown).compactMap { $0["callsign"] as? String })"
        )

        // Only callsigns went out: paths of the form /api/v0/callsign/CALLSIGN, no query, and
        // no header that says where the receiver is.
        let requests = try String(contentsOfFile: requestLog, encoding: .utf8).split(separator: "\n")
        #expect(!requests.isEmpty)
        for request in requests {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(request.utf8)) as? [String: Any])
            let path = try #require(object["path"] as? String)
            #expect(path.range(of: #"^/api/v0/callsign/[A-Z0-9]{2,8}$"#, options: .regularExpression) != nil, "\(path)")
            let headers = (object["headers"] as? [String: String]) ?? [:]
            #expect(!headers.values.contains { $0.contains("52.3") || $0.contains("4.75") })
        }
        // Each callsign is asked once: answers (and unknowns) are kept.
        let paths = requests.compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["path"] as? String
        }
        #expect(Set(paths).count == paths.count, "a callsign was looked up twice")
    }
}
