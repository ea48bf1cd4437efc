import Foundation
import Identity
import NIOConcurrencyHelpers
import Support
import TestSupport
import Testing
import Tracking

@testable import Receivers

/// The route service against a local fake: what it sends, what it publishes, how it backs off.
@Suite struct RouteLookupTests {
    /// Everything the service published, in order.
    final class Publications: Sendable {
        private let maps = NIOLockedValueBox<[[String: FlightRoute]]>([])

        func append(_ map: [String: FlightRoute]) { maps.withLockedValue { $0.append(map) } }
        var all: [[String: FlightRoute]] { maps.withLockedValue { $0 } }
        var latest: [String: FlightRoute] { all.last ?? [:] }

        /// Waits up to `limit` for a published map that satisfies `condition`; returns it.
        func wait(_ limit: Duration = .seconds(30), until condition: ([String: FlightRoute]) -> Bool) async -> [String:
            FlightRoute]?
        {
            let deadline = ContinuousClock.now + limit
            while ContinuousClock.now < deadline {
                if let map = all.last(where: condition) { return map }
                try? await Task.sleep(for: .milliseconds(20))
            }
            return nil
        }
    }

    /// A running service and what it needs.
    struct Running {
        let lookup: RouteLookup
        let task: Task<Void, Never>
        let publications: Publications
        let log: LogRecorder

        /// Cancels the service and waits until `run` returns.
        func stop() async {
            task.cancel()
            await task.value
        }
    }

    static func start(
        _ server: FakeRouteServer, callsigns: [String], configure: (inout RouteLookup.Configuration) -> Void = { _ in }
    )
        throws -> Running
    {
        var configuration = try RouteLookup.Configuration(baseURL: server.baseURL + "/")
        configuration.interval = .milliseconds(50)
        // Far above a loopback answer even on a loaded machine; the tests of time limits set
        // their own.
        configuration.timeout = .seconds(20)
        configure(&configuration)
        let publications = Publications()
        let log = LogRecorder()
        let lookup = RouteLookup(
            configuration: configuration, callsigns: { callsigns }, publish: { publications.append($0) },
            logger: log.logger, generator: SplitMix(state: 42))
        return Running(lookup: lookup, task: Task { await lookup.run() }, publications: publications, log: log)
    }

    static func waitFor(_ limit: Duration = .seconds(30), _ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return condition()
    }

    @Test func knownRoutesArePublishedAndUnknownOnesAreNot() async throws {
        let server = try await FakeRouteServer { callsign in
            callsign == "BAW123" ? .answer(200, body: RouteFixtures.known()) : .answer(404, body: RouteFixtures.unknown)
        }
        let running = try Self.start(server, callsigns: ["BAW123", " xyz99", "not a callsign", "BAW123"])
        let map = await running.publications.wait { $0["BAW123"] != nil }
        #expect(map?["BAW123"]?.origin.iata == "LHR")
        #expect(map?["BAW123"]?.destination.icao == "KJFK")
        #expect(await Self.waitFor { running.lookup.statistics.unknown == 1 })
        try await Task.sleep(for: .milliseconds(300))
        await running.stop()

        #expect(running.publications.latest.keys.sorted() == ["BAW123"])
        #expect(
            running.lookup.statistics
                == {
                    var s = RouteLookup.Statistics()
                    s.requests = 2
                    s.found = 1
                    s.unknown = 1
                    return s
                }())
        // One request per callsign, carrying the callsign and nothing else about the receiver.
        #expect(server.requests.map(\.path).sorted() == ["/callsign/BAW123", "/callsign/XYZ99"])
        for request in server.requests {
            let names = Set(request.headers.map { $0.0.lowercased() })
            #expect(names.isSubset(of: ["host", "user-agent", "accept", "content-length", "connection"]), "\(names)")
            #expect(request.headers.first { $0.0.lowercased() == "user-agent" }?.1 == "aviator-adsb")
        }
        #expect(running.log.problems.isEmpty)
        await server.stop()
    }

    @Test func failuresBackOffAndAreLoggedOnce() async throws {
        let server = try await FakeRouteServer { callsign in
            callsign == "FAIL1"
                ? .answer(500, body: "{\"secret\":\"do not log me\"}") : .answer(404, body: RouteFixtures.unknown)
        }
        let running = try Self.start(server, callsigns: ["FAIL1"]) {
            $0.limits = RouteCache.Limits(retry: RetryPolicy(initial: .milliseconds(200), maximum: .seconds(60)))
        }
        // Two failures at least (the first retry shows the backoff), then a while longer.
        #expect(await Self.waitFor { running.lookup.statistics.failed >= 2 })
        try await Task.sleep(for: .milliseconds(2_000))
        await running.stop()

        // Ticks every 50 ms would ask again at once; the backoff (0.1–0.2 s, then 0.2–0.4,
        // 0.4–0.8 s, …) spaces the requests out, which the gaps below show.
        let times = server.requests(for: "FAIL1").map(\.time)
        #expect(times.count >= 2, "\(times.count) requests")
        // The n-th gap is at least the shortest n-th wait, 0.1 s · 2^(n−1); the ticks and the
        // machine's load can only make it longer.
        let gaps = zip(times.dropFirst(), times).map { ($0 - $1).inSeconds }
        for (index, gap) in gaps.enumerated() {
            #expect(gap >= 0.1 * Double(1 << index), "gaps \(gaps)")
        }
        // A request may still have been on its way when the service stopped.
        #expect((times.count - 1...times.count).contains(running.lookup.statistics.failed))
        // A request counted just before the stop may never have reached the server.
        #expect((times.count...times.count + 1).contains(running.lookup.statistics.requests))
        #expect(running.log.problems == ["route lookup for FAIL1 failed: HTTP status 500"])
        #expect(!running.log.text.contains("secret"))
        await server.stop()
    }

    @Test func aSlowAnswerDoesNotHoldBackTheOthers() async throws {
        let server = try await FakeRouteServer { callsign in
            switch callsign {
            case "SLOW1": .silence
            case "LATE1": .late(.milliseconds(300), .answer(200, body: RouteFixtures.known(callsign: "LATE1")))
            default: .answer(200, body: RouteFixtures.known(callsign: callsign))
            }
        }
        let started = ContinuousClock.now
        let running = try Self.start(server, callsigns: ["SLOW1", "BAW1", "LATE1", "BAW2", "BAW3"]) {
            $0.timeout = .seconds(25)
        }
        let map = await running.publications.wait { ["BAW1", "LATE1", "BAW2", "BAW3"].allSatisfy($0.keys.contains) }
        #expect(map != nil)
        // Published while the hung lookup was still waiting (nothing had failed yet).
        #expect(map?["SLOW1"] == nil)
        #expect(running.lookup.statistics.failed == 0)

        // The hung lookup ends at the time limit as a failure, logged as a timeout. (A loaded
        // computer running every suite at once can be late with a timer by many seconds.)
        #expect(await Self.waitFor(.seconds(90)) { running.lookup.statistics.failed == 1 })
        #expect(ContinuousClock.now - started >= .seconds(25))
        #expect(running.log.problems.first == "route lookup for SLOW1 failed: no answer within 25 s")
        await running.stop()
        await server.stop()
    }

    @Test func aTricklingBodyEndsAtTheTimeLimit() async throws {
        let server = try await FakeRouteServer { _ in .trickle(RouteFixtures.known(), every: .milliseconds(100)) }
        let started = ContinuousClock.now
        let running = try Self.start(server, callsigns: ["DRIP1"]) { $0.timeout = .seconds(1) }
        #expect(await Self.waitFor { running.lookup.statistics.failed == 1 })
        let elapsed = ContinuousClock.now - started
        // The limit and its backstop bound it; a loaded machine may add a few seconds, a body
        // that trickled on unchecked would take the whole wait.
        #expect(elapsed >= .seconds(1) && elapsed < .seconds(30), "failed after \(elapsed)")
        #expect(running.log.problems == ["route lookup for DRIP1 failed: no answer within 1 s"])
        await running.stop()
        await server.stop()
    }

    @Test func hostileAnswersFailWithoutHarm() async throws {
        let huge = "{\"response\":\"" + String(repeating: "x", count: 200_000) + "\"}"
        let server = try await FakeRouteServer { callsign in
            switch callsign {
            case "HUGE1": .answer(200, body: huge)
            case "BAD1": .answer(200, body: "<html>not json</html>")
            case "MOVED1": .answer(302, headers: [("Location", "/callsign/BAW123")], body: "")
            case "TYPES1":
                .answer(200, body: #"{"response":{"flightroute":{"origin":{"icao_code":7},"destination":[]}}}"#)
            default: .answer(200, body: RouteFixtures.known(callsign: callsign))
            }
        }
        let running = try Self.start(server, callsigns: ["HUGE1", "BAD1", "MOVED1", "TYPES1", "GOOD1"])
        #expect(await Self.waitFor { running.lookup.statistics.failed == 4 && running.lookup.statistics.found == 1 })
        await running.stop()
        #expect(running.publications.latest.keys.sorted() == ["GOOD1"])
        #expect(server.requests(for: "BAW123").isEmpty, "a redirect was followed")
        // One line per kind: the two malformed answers share one.
        let problems = Set(running.log.problems)
        #expect(problems.count == 3, "\(problems)")
        #expect(problems.contains("route lookup for HUGE1 failed: answer over the limit of 65536 bytes"))
        #expect(problems.contains("route lookup for MOVED1 failed: redirect (HTTP 302) not followed"))
        #expect(
            problems.contains("route lookup for BAD1 failed: answer is not JSON")
                || problems.contains("route lookup for TYPES1 failed: answer has no destination object"))
        #expect(problems.allSatisfy { !$0.contains("xxxx") && !$0.contains("html") })
        await server.stop()
    }

    @Test func aDeadServiceIsAFailureNotAHang() async throws {
        let server = try await FakeRouteServer { _ in .answer(404, body: "") }
        let base = server.baseURL
        await server.stop()
        var configuration = try RouteLookup.Configuration(baseURL: base)
        configuration.interval = .milliseconds(50)
        configuration.timeout = .seconds(1)
        let log = LogRecorder()
        let lookup = RouteLookup(
            configuration: configuration, callsigns: { ["DEAD1"] }, publish: { _ in }, logger: log.logger)
        let task = Task { await lookup.run() }
        #expect(await Self.waitFor { lookup.statistics.failed == 1 })
        task.cancel()
        await task.value
        #expect(
            log.problems.count == 1 && log.problems[0].hasPrefix("route lookup for DEAD1 failed: connection"),
            "\(log.problems)")
    }

    @Test func onlyHTTPServicesAreAccepted() throws {
        let configuration = try RouteLookup.Configuration(baseURL: " https://routes.example/api// ")
        #expect(configuration.url(for: "BAW123") == "https://routes.example/api/callsign/BAW123")
        #expect(
            try RouteLookup.Configuration(baseURL: "http://127.0.0.1:8080").url(for: "AB1")
                == "http://127.0.0.1:8080/callsign/AB1")
        for bad in [
            "ftp://routes.example", "file:///etc/passwd", "routes.example", "http://", "https://x.example/?key=1",
            "https://x.example/#top", "https://user:secret@x.example", ""
        ] {
            #expect(throws: RouteError.self, "\(bad)") { try RouteLookup.Configuration(baseURL: bad) }
        }
    }
}
