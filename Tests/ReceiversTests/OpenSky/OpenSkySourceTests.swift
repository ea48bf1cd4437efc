import Foundation
import Logging
import ModeS
import Support
import TestSupport
import Testing
import Tracking

@testable import Receivers

/// The OpenSky source against a local fake of the API: real-shaped answers, and on cue the
/// API's failures. Every case ends with the right aircraft in the tracker or the right log
/// line, and the source still running until it is cancelled.
@Suite struct OpenSkySourceTests {
    typealias Reply = FakeOpenSkyServer.Reply

    static let zurich = GeoPoint(latitude: 47.4581, longitude: 8.5555)
    static let allThree: Set<String> = ["4b1805", "3c6675", "a1b2c3"]

    /// A configuration for `server` with test-sized intervals. The request timeout is shorter
    /// only in the tests of hangs, and even there long enough (`hangTimeout`) that a test
    /// runner busy with other suites does not turn the fake's next, slow answer into a timeout
    /// too (the test expects that answer's own log line).
    func configuration(
        _ server: FakeOpenSkyServer, receiver: GeoPoint? = zurich,
        credentials: OAuthTokenProvider.Credentials? = nil,
        timeout: Duration = .seconds(5)
    ) -> OpenSkySource.Configuration {
        var configuration = OpenSkySource.Configuration()
        configuration.baseURL = server.baseURL
        configuration.tokenURL = server.tokenURL
        configuration.receiver = receiver
        configuration.credentials = credentials
        configuration.interval = .milliseconds(50)
        configuration.requestTimeout = timeout
        configuration.retry = RetryPolicy(initial: .milliseconds(20), maximum: .milliseconds(100))
        return configuration
    }

    /// The request timeout of the tests in which the fake server hangs once.
    static let hangTimeout = Duration.seconds(2)

    /// Runs a source until `done` holds (or 60 s pass: the whole test suite shares two cores),
    /// then cancels it; the source must end quietly then, never before. Returns the source.
    @discardableResult
    func run(
        _ configuration: OpenSkySource.Configuration, log: LogRecorder, tracker: WiredTracker,
        until done: @escaping @Sendable () -> Bool
    ) async throws -> OpenSkySource {
        let source = OpenSkySource(configuration: configuration, logger: log.logger, minimumInterval: .milliseconds(10))
        let task = Task { try await source.run(into: tracker) }
        let deadline = ContinuousClock.now + .seconds(60)
        while !done(), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        task.cancel()
        try await task.value
        return source
    }

    func icaos(_ tracker: WiredTracker) -> Set<String> {
        Set(tracker.snapshot().aircraft.map(\.icaoHex))
    }

    @Test func realShapedAnswerFeedsTheTracker() async throws {
        let server = try await FakeOpenSkyServer(states: [.json(OpenSkyFixtures.threeAircraft())])
        let log = LogRecorder()
        let tracker = WiredTracker(receiver: Self.zurich)
        try await run(configuration(server), log: log, tracker: tracker) { tracker.counters.stateUpdates >= 9 }
        let aircraft = tracker.snapshot().aircraft
        #expect(Set(aircraft.map(\.icaoHex)) == Self.allThree)
        #expect(aircraft.allSatisfy { $0.source == .opensky })
        let cruising = try #require(aircraft.first { $0.icaoHex == "4b1805" })
        #expect(cruising.callsign == "SWR8KR")
        #expect(cruising.altitudeBaroFt == 10_000)
        #expect(cruising.position == GeoPoint(latitude: 47.4502, longitude: 8.6521))
        let taxiing = try #require(aircraft.first { $0.icaoHex == "3c6675" })
        #expect(taxiing.onGround == true && taxiing.category == "A3" && taxiing.position == nil)
        #expect(tracker.counters.stateUpdates >= 9, "polled again and again")
        #expect(log.contains("OpenSky: 3 aircraft in the box"))
        #expect(log.problems.isEmpty, "\(log.problems)")
        #expect(log.contains("polling \(server.baseURL) every", "anonymous"))
        try await server.stop()
    }

    @Test func badGatewayIsRetried() async throws {
        let server = try await FakeOpenSkyServer(states: [
            .status(502, body: "<html>Bad Gateway</html>"), .status(503), .json(OpenSkyFixtures.threeAircraft())
        ])
        let log = LogRecorder()
        let tracker = WiredTracker(receiver: Self.zurich)
        try await run(configuration(server), log: log, tracker: tracker) { tracker.snapshot().aircraft.count == 3 }
        #expect(icaos(tracker) == Self.allThree)
        #expect(log.contains("OpenSky answered HTTP 502", "retrying in"))
        #expect(log.contains("OpenSky answered HTTP 503", "failure 2 in a row"))
        #expect(log.contains("answering again after 2 failed request(s)"))
        try await server.stop()
    }

    @Test func aHangPastTheTimeoutIsRetried() async throws {
        let server = try await FakeOpenSkyServer(states: [.hang, .json(OpenSkyFixtures.threeAircraft())])
        let log = LogRecorder()
        let tracker = WiredTracker(receiver: Self.zurich)
        try await run(configuration(server, timeout: Self.hangTimeout), log: log, tracker: tracker) {
            tracker.snapshot().aircraft.count == 3
        }
        #expect(icaos(tracker) == Self.allThree)
        #expect(log.contains("OpenSky states request timed out after 2 s"))
        let requests = server.stateRequests
        try #require(requests.count >= 2)
        // The retry waits at most 20 ms, so a gap near 2 s is the timeout running out (measured at
        // the server, it can be shorter by the time the client took to connect).
        #expect(requests[1].time - requests[0].time >= .milliseconds(1_500), "the timeout ran out before the retry")
        try await server.stop()
    }

    @Test func rateLimitHonoursTheRetryHeader() async throws {
        let server = try await FakeOpenSkyServer(states: [
            .status(429, headers: [("X-Rate-Limit-Retry-After-Seconds", "1")], body: "Too many requests"),
            .json(OpenSkyFixtures.threeAircraft())
        ])
        let log = LogRecorder()
        let tracker = WiredTracker(receiver: Self.zurich)
        try await run(configuration(server), log: log, tracker: tracker) { tracker.snapshot().aircraft.count == 3 }
        #expect(icaos(tracker) == Self.allThree)
        #expect(log.contains("rate limit reached (HTTP 429), asked to retry after 1 s", "retrying in 1 s"))
        let requests = server.stateRequests
        try #require(requests.count >= 2)
        // The backoff alone would have waited at most 20 ms.
        #expect(requests[1].time - requests[0].time >= .milliseconds(950))
        try await server.stop()
    }

    @Test func requestsAreCountedByOutcome() async throws {
        let server = try await FakeOpenSkyServer(states: [
            .status(502), .json(""), .status(503), .json(OpenSkyFixtures.threeAircraft())
        ])
        let log = LogRecorder()
        let tracker = WiredTracker(receiver: Self.zurich)
        let source = try await run(configuration(server), log: log, tracker: tracker) {
            tracker.snapshot().aircraft.count == 3
        }
        let counts = Dictionary(uniqueKeysWithValues: source.requests.snapshot.map { ($0.outcome, $0.requests) })
        #expect(counts["server_error"] == 2)
        #expect(counts["malformed"] == 1)
        #expect((counts["ok"] ?? 0) >= 1)
        #expect(Set(counts.keys) == ["server_error", "malformed", "ok"])
        // Every request is counted once, but for one the cancellation may have cut short.
        let counted = counts.values.reduce(0, +)
        let served = server.stateRequests.count
        #expect(counted == served || counted == served - 1, "\(counted) counted, \(served) served")
        try await server.stop()
    }

    @Test func nullStatesIsAnEmptySkyNotAnError() async throws {
        let server = try await FakeOpenSkyServer(states: [
            .json(OpenSkyFixtures.emptySky()), .json(OpenSkyFixtures.emptySky()), .json(OpenSkyFixtures.threeAircraft())
        ])
        let log = LogRecorder()
        let tracker = WiredTracker(receiver: Self.zurich)
        try await run(configuration(server), log: log, tracker: tracker) { tracker.snapshot().aircraft.count == 3 }
        #expect(log.contains("OpenSky: no aircraft (empty sky) in the box"))
        #expect(log.problems.isEmpty, "\(log.problems)")
        let requests = server.stateRequests
        try #require(requests.count >= 3)
        #expect(requests[1].time - requests[0].time >= .milliseconds(45), "an empty sky waits the full interval")
        try await server.stop()
    }

    @Test func truncatedJSONAndEmptyBodiesAreRetried() async throws {
        let truncated = String(OpenSkyFixtures.threeAircraft().prefix(120))
        let server = try await FakeOpenSkyServer(states: [
            .json(truncated), .json(""), .json(OpenSkyFixtures.threeAircraft())
        ])
        let log = LogRecorder()
        let tracker = WiredTracker(receiver: Self.zurich)
        try await run(configuration(server), log: log, tracker: tracker) { tracker.snapshot().aircraft.count == 3 }
        #expect(icaos(tracker) == Self.allThree)
        #expect(log.contains("HTTP 200 with no usable data: malformed JSON (120 bytes)"))
        #expect(log.contains("HTTP 200 with no usable data: empty response body"))
        try await server.stop()
    }

    @Test func malformedRowsAreSkippedNotFatal() async throws {
        let body = OpenSkyFixtures.body([
            OpenSkyFixtures.cruising(), #"["4b1806","SHORT","Switzerland",1,2]"#, OpenSkyFixtures.sparse()
        ])
        let server = try await FakeOpenSkyServer(states: [.json(body)])
        let log = LogRecorder()
        let tracker = WiredTracker(receiver: Self.zurich)
        try await run(configuration(server), log: log, tracker: tracker) { server.stateRequests.count >= 2 }
        #expect(icaos(tracker) == ["4b1805", "a1b2c3"])
        #expect(log.contains("skipped 1 malformed state vector(s) of 3; first: row 1"))
        try await server.stop()
    }

    @Test func everyFailureInARowAndStillRunning() async throws {
        let server = try await FakeOpenSkyServer(states: [
            .status(502), .hang, .status(429, headers: [("X-Rate-Limit-Retry-After-Seconds", "0")]),
            .json("{\"time\":1,\"sta"), .status(500), .status(404), .json(OpenSkyFixtures.threeAircraft())
        ])
        let log = LogRecorder()
        let tracker = WiredTracker(receiver: Self.zurich)
        try await run(configuration(server, timeout: Self.hangTimeout), log: log, tracker: tracker) {
            tracker.snapshot().aircraft.count == 3
        }
        #expect(icaos(tracker) == Self.allThree)
        for text in ["HTTP 502", "timed out", "HTTP 429", "malformed JSON", "HTTP 500", "HTTP 404"] {
            #expect(log.problems.contains { $0.contains(text) }, "\(text): \(log.problems)")
        }
        #expect(log.contains("answering again after", "failed request(s)"))
        // One line per request: a problem or an answer (the last request may still be in flight).
        let answers = log.lines.filter { $0.text.contains("in the box") }.count
        let requests = server.stateRequests.count
        #expect(
            log.problems.count + answers == requests || log.problems.count + answers == requests - 1,
            "\(log.problems.count) problems, \(answers) answers, \(requests) requests")
        try await server.stop()
    }

    @Test func theRequestCarriesTheRoundedPositionOnly() async throws {
        let server = try await FakeOpenSkyServer(states: [.json(OpenSkyFixtures.emptySky())])
        let log = LogRecorder()
        let tracker = WiredTracker(receiver: nil)
        let greenwich = GeoPoint(latitude: 51.477_928, longitude: -0.001_545)
        var configuration = configuration(server, receiver: greenwich)
        configuration.latitudeHalfSpan = 0.25
        configuration.longitudeHalfSpan = 0.5
        try await run(configuration, log: log, tracker: tracker) { server.stateRequests.count >= 2 }
        let request = try #require(server.stateRequests.first)
        #expect(request.method == "GET")
        #expect(request.uri == "/api/states/all?lamin=51.25&lomin=-0.5&lamax=51.75&lomax=0.5")
        for request in server.requests {
            for exact in ["51.477", "51.48", "0.0015", "0.002", "477928", "1545"] {
                #expect(!request.wholeText.contains(exact), "\(exact) left the machine: \(request.wholeText)")
            }
        }
        #expect(!log.text.contains("51.477") && !log.text.contains("0.0015"))
        #expect(log.contains("lat 51.25…51.75, lon -0.5…0.5"))
        try await server.stop()
    }

    @Test func withoutAReceiverItSaysSoAndStaysIdle() async throws {
        let server = try await FakeOpenSkyServer(states: [.json(OpenSkyFixtures.threeAircraft())])
        let log = LogRecorder()
        let tracker = WiredTracker(receiver: nil)
        let started = ContinuousClock.now
        try await run(configuration(server, receiver: nil), log: log, tracker: tracker) {
            ContinuousClock.now - started > .milliseconds(300)
        }
        #expect(server.requests.isEmpty)
        #expect(log.lines.count == 1)
        #expect(log.contains("OpenSky fallback idle: no receiver position", "--receiver"))
        try await server.stop()
    }

    @Test func nothingListeningIsAConnectionErrorRetried() async throws {
        let server = try await FakeOpenSkyServer(states: [.json(OpenSkyFixtures.emptySky())])
        var configuration = configuration(server, timeout: .milliseconds(400))
        try await server.stop()
        // Nothing listens on the discard port (a freed ephemeral port could be taken by a
        // server of another test running in parallel).
        configuration.baseURL = "http://127.0.0.1:9"
        let log = LogRecorder()
        let tracker = WiredTracker(receiver: nil)
        try await run(configuration, log: log, tracker: tracker) { log.problems.count >= 3 }
        // Refused at once, said so, and retried by the source's backoff.
        #expect(log.contains("OpenSky states request failed:", "Connection refused"), "\(log.problems)")
        #expect(log.contains("Connection refused", "failure 3 in a row"), "\(log.problems)")
    }
}

/// OAuth2 client credentials against the fake token endpoint.
@Suite struct OpenSkyAuthenticationTests {
    typealias Reply = FakeOpenSkyServer.Reply
    let credentials = OAuthTokenProvider.Credentials(clientID: "radar-client", clientSecret: "s3cr&t=x y")
    let base = OpenSkySourceTests()

    static func token(_ value: String, expiresIn: Int) -> Reply {
        .json(
            #"{"access_token":"\#(value)","expires_in":\#(expiresIn),"refresh_expires_in":0,"token_type":"Bearer","not-before-policy":0,"scope":"profile email"}"#
        )
    }

    @Test func tokenIsFetchedCachedAndRefreshedBeforeItExpires() async throws {
        // The first token lives 2 s: with a 60 s margin it is refreshed at half its life.
        let server = try await FakeOpenSkyServer(
            states: [.json(OpenSkyFixtures.threeAircraft())],
            tokens: [Self.token("tok-first", expiresIn: 2), Self.token("tok-second", expiresIn: 1800)])
        let log = LogRecorder()
        let tracker = WiredTracker(receiver: nil)
        try await base.run(base.configuration(server, credentials: credentials), log: log, tracker: tracker) {
            server.stateRequests.count >= 10
                && server.stateRequests.last?.header("Authorization") == "Bearer tok-second"
        }
        #expect(base.icaos(tracker) == OpenSkySourceTests.allThree)
        let tokenRequests = server.tokenRequests
        try #require(tokenRequests.count == 2, "cached between refreshes")
        let form = try #require(tokenRequests.first)
        #expect(form.method == "POST")
        #expect(form.header("Content-Type") == "application/x-www-form-urlencoded")
        #expect(form.body == "grant_type=client_credentials&client_id=radar-client&client_secret=s3cr%26t%3Dx%20y")
        let states = server.stateRequests
        #expect(states.first?.header("Authorization") == "Bearer tok-first")
        #expect(states.allSatisfy { $0.header("Authorization")?.hasPrefix("Bearer tok-") == true })
        // Cached: ten and more polls, two token requests, the first token used first and the
        // second last. When the refresh is due is checked on given times by `refreshSchedule`
        // (times measured here would depend on how busy the machine is).
        #expect(states.last?.header("Authorization") == "Bearer tok-second")
        #expect(log.contains("authenticated as OpenSky client radar-client (secret hidden)"))
        for secret in ["s3cr", "tok-first", "tok-second"] {
            #expect(!log.text.contains(secret), "\(secret) was logged")
        }
        try await server.stop()
    }

    @Test func aRefusedTokenIsReplaced() async throws {
        let server = try await FakeOpenSkyServer(
            states: [.status(401), .json(OpenSkyFixtures.threeAircraft())],
            tokens: [Self.token("tok-old", expiresIn: 1800), Self.token("tok-new", expiresIn: 1800)])
        let log = LogRecorder()
        let tracker = WiredTracker(receiver: nil)
        try await base.run(base.configuration(server, credentials: credentials), log: log, tracker: tracker) {
            tracker.snapshot().aircraft.count == 3
        }
        #expect(server.tokenRequests.count == 2)
        #expect(
            server.stateRequests.map { $0.header("Authorization") }.prefix(2) == ["Bearer tok-old", "Bearer tok-new"])
        #expect(log.contains("OpenSky answered HTTP 401: the access token was refused"))
        try await server.stop()
    }

    @Test func aFailingTokenEndpointIsRetried() async throws {
        let server = try await FakeOpenSkyServer(
            states: [.json(OpenSkyFixtures.threeAircraft())],
            tokens: [
                .status(401, body: #"{"error":"unauthorized_client"}"#), .hang, .status(502),
                Self.token("tok-1", expiresIn: 1800)
            ])
        let log = LogRecorder()
        let tracker = WiredTracker(receiver: nil)
        try await base.run(
            base.configuration(server, credentials: credentials, timeout: OpenSkySourceTests.hangTimeout),
            log: log, tracker: tracker
        ) {
            tracker.snapshot().aircraft.count == 3
        }
        #expect(base.icaos(tracker) == OpenSkySourceTests.allThree)
        #expect(
            log.contains("refused the client credentials (HTTP 401): check OPENSKY_CLIENT_ID and OPENSKY_CLIENT_SECRET")
        )
        #expect(log.contains("OpenSky token request timed out"))
        #expect(log.contains("OpenSky token endpoint answered HTTP 502"))
        #expect(
            server.stateRequests.allSatisfy { $0.header("Authorization") == "Bearer tok-1" },
            "no states request went out without its token")
        #expect(!log.text.contains("s3cr"))
        try await server.stop()
    }

    @Test func anUnusableTokenIsNotUsedButFetchedAgain() async throws {
        let server = try await FakeOpenSkyServer(
            states: [.json(OpenSkyFixtures.threeAircraft())],
            tokens: [Self.token(#"tok\r\nX-Evil: 1"#, expiresIn: 31_536_000), Self.token("tok-good", expiresIn: 1800)])
        let log = LogRecorder()
        let tracker = WiredTracker(receiver: nil)
        try await base.run(base.configuration(server, credentials: credentials), log: log, tracker: tracker) {
            tracker.snapshot().aircraft.count == 3
        }
        #expect(log.contains("OpenSky token endpoint sent no usable token"))
        #expect(server.tokenRequests.count == 2)
        #expect(server.stateRequests.allSatisfy { $0.header("Authorization") == "Bearer tok-good" })
        try await server.stop()
    }

    @Test func bearerTokensAreCheckedBeforeUse() {
        for token in ["eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln-_", "abc+/~==", "x"] {
            #expect(OAuthTokenProvider.isUsableToken(token), "\(token)")
        }
        for token in ["", "tok\r\nX: 1", "tok en", "=abc", "abc=d", "tök", String(repeating: "a", count: 8193)] {
            #expect(!OAuthTokenProvider.isUsableToken(token), "\(token.prefix(20))")
        }
    }

    @Test func refreshSchedule() {
        let margin = Duration.seconds(60)
        #expect(OAuthTokenProvider.refreshDelay(lifetime: .seconds(1800), margin: margin) == .seconds(1740))
        #expect(OAuthTokenProvider.refreshDelay(lifetime: .seconds(300), margin: margin) == .seconds(240))
        #expect(OAuthTokenProvider.refreshDelay(lifetime: .seconds(100), margin: margin) == .seconds(50))
        #expect(OAuthTokenProvider.refreshDelay(lifetime: .seconds(2), margin: margin) == .seconds(1))
        #expect(OAuthTokenProvider.refreshDelay(lifetime: .zero, margin: margin) == .zero)
    }

    @Test func credentialsFromTheEnvironment() throws {
        #expect(try OAuthTokenProvider.Credentials.fromEnvironment([:]) == nil)
        let both = try OAuthTokenProvider.Credentials.fromEnvironment(
            ["OPENSKY_CLIENT_ID": "id", "OPENSKY_CLIENT_SECRET": "hush"])
        #expect(both == .init(clientID: "id", clientSecret: "hush"))
        #expect(!"\(both!)".contains("hush"))
        for partial in [
            ["OPENSKY_CLIENT_ID": "id"], ["OPENSKY_CLIENT_SECRET": "hush"],
            ["OPENSKY_CLIENT_ID": "", "OPENSKY_CLIENT_SECRET": "hush"]
        ] {
            #expect(throws: OpenSkyError.self) { try OAuthTokenProvider.Credentials.fromEnvironment(partial) }
        }
    }

    @Test func theAuthenticatedDefaultIntervalIsShorter() {
        var configuration = OpenSkySource.Configuration()
        #expect(OpenSkySource(configuration: configuration, logger: Logger(label: "test")).pollInterval == .seconds(10))
        configuration.credentials = credentials
        #expect(OpenSkySource(configuration: configuration, logger: Logger(label: "test")).pollInterval == .seconds(5))
        configuration.interval = .seconds(1)
        #expect(
            OpenSkySource(configuration: configuration, logger: Logger(label: "test")).pollInterval == .seconds(5),
            "the floor")
        configuration.interval = .seconds(30)
        #expect(OpenSkySource(configuration: configuration, logger: Logger(label: "test")).pollInterval == .seconds(30))
    }
}
