import Foundation
import Support
import TestSupport
import Testing
import Tracking

@testable import Receivers

/// What the API's answers may not make the source do: send the client secret or the token to
/// another server, or ask faster than its poll interval.
@Suite struct OpenSkyRedirectTests {
    typealias Reply = FakeOpenSkyServer.Reply
    let base = OpenSkySourceTests()
    let credentials = OAuthTokenProvider.Credentials(clientID: "radar-client", clientSecret: "s3cr&t=x y")

    static func token(_ value: String) -> Reply {
        .json(#"{"access_token":"\#(value)","expires_in":1800,"token_type":"Bearer"}"#)
    }

    @Test(arguments: [301, 302, 303, 307, 308])
    func theTokenRequestFollowsNoRedirect(status: Int) async throws {
        // The other server, on another port, is another origin: it must hear nothing.
        let other = try await FakeOpenSkyServer(
            states: [.json(OpenSkyFixtures.threeAircraft())], tokens: [Self.token("stolen")])
        let server = try await FakeOpenSkyServer(
            states: [.json(OpenSkyFixtures.threeAircraft())],
            tokens: [.status(status, headers: [("Location", other.tokenURL)])])
        let log = LogRecorder()
        let tracker = WiredTracker(receiver: nil)
        try await base.run(base.configuration(server, credentials: credentials), log: log, tracker: tracker) {
            server.tokenRequests.count >= 3
        }
        #expect(other.requests.isEmpty, "\(other.requests.map(\.wholeText))")
        #expect(server.stateRequests.isEmpty, "no states request without a token")
        #expect(
            log.contains(
                "OpenSky token endpoint answered HTTP \(status) (a redirect to \(Self.origin(other)))",
                "not followed", "retrying in"))
        #expect(!log.text.contains("s3cr"))
        try await server.stop()
        try await other.stop()
    }

    @Test func theStatesRequestFollowsNoRedirectToAnotherServer() async throws {
        let other = try await FakeOpenSkyServer(states: [.json(OpenSkyFixtures.threeAircraft())])
        let server = try await FakeOpenSkyServer(
            states: [.status(302, headers: [("Location", other.baseURL + FakeOpenSkyServer.statesPath + "?lamin=1")])],
            tokens: [Self.token("tok-1")])
        let log = LogRecorder()
        let tracker = WiredTracker(receiver: nil)
        try await base.run(base.configuration(server, credentials: credentials), log: log, tracker: tracker) {
            server.stateRequests.count >= 3
        }
        #expect(other.requests.isEmpty, "\(other.requests.map(\.wholeText))")
        #expect(tracker.snapshot().aircraft.isEmpty)
        #expect(
            log.contains(
                "OpenSky answered HTTP 302, a redirect to another server (\(Self.origin(other))); not followed"))
        try await server.stop()
        try await other.stop()
    }

    @Test func theStatesRequestFollowsARedirectOnTheSameServer() async throws {
        let server = try await FakeOpenSkyServer(
            states: [
                .status(307, headers: [("Location", FakeOpenSkyServer.statesPath + "?moved=1")]),
                .json(OpenSkyFixtures.threeAircraft())
            ],
            tokens: [Self.token("tok-1")])
        let log = LogRecorder()
        let tracker = WiredTracker(receiver: nil)
        try await base.run(base.configuration(server, credentials: credentials), log: log, tracker: tracker) {
            tracker.snapshot().aircraft.count == 3
        }
        let requests = server.stateRequests
        try #require(requests.count >= 2)
        #expect(requests[1].uri == FakeOpenSkyServer.statesPath + "?moved=1")
        #expect(requests.allSatisfy { $0.header("Authorization") == "Bearer tok-1" })
        #expect(log.problems.isEmpty, "\(log.problems)")
        try await server.stop()
    }

    @Test func endlessRedirectsOnTheSameServerAreAnError() async throws {
        let server = try await FakeOpenSkyServer(states: [
            .status(302, headers: [("Location", FakeOpenSkyServer.statesPath + "?again")])
        ])
        let log = LogRecorder()
        let tracker = WiredTracker(receiver: nil)
        try await base.run(base.configuration(server), log: log, tracker: tracker) { server.stateRequests.count >= 13 }
        #expect(log.contains("redirected the states request more than \(OpenSkyClient.maximumRedirects) times"))
        try await server.stop()
    }

    /// Retry-After values that ask for less than the poll interval: none may make the source
    /// ask again sooner than it does when all is well.
    @Test(arguments: ["0", "0.01", "-5", "soon", "Sun, 06 Nov 1994 08:49:37 GMT"])
    func aRateLimitNeverPollsFasterThanTheInterval(retryAfter: String) async throws {
        let server = try await FakeOpenSkyServer(states: [.status(429, headers: [("Retry-After", retryAfter)])])
        var configuration = base.configuration(server)
        configuration.interval = .milliseconds(400)
        let log = LogRecorder()
        let tracker = WiredTracker(receiver: nil)
        try await base.run(configuration, log: log, tracker: tracker) { server.stateRequests.count >= 4 }
        let times = server.stateRequests.map(\.time)
        try #require(times.count >= 4)
        for index in 1..<times.count {
            #expect(
                times[index] - times[index - 1] >= .milliseconds(390),
                "request \(index) after \(times[index] - times[index - 1])")
        }
        try await server.stop()
    }

    @Test func retryAfterIsClampedToTheIntervalAndAnHour() throws {
        var configuration = OpenSkySource.Configuration()
        configuration.interval = .seconds(10)
        let source = OpenSkySource(configuration: configuration, logger: LogRecorder().logger)
        #expect(source.rateLimitWait(.zero, backoff: .seconds(2)) == .seconds(10))
        #expect(source.rateLimitWait(nil, backoff: .seconds(2)) == .seconds(10))
        #expect(source.rateLimitWait(.seconds(90), backoff: .seconds(2)) == .seconds(90))
        let policy = RetryPolicy()
        #expect(source.rateLimitWait(policy.retryAfter(header: "86400"), backoff: .seconds(2)) == .seconds(3600))
        // An HTTP date: the time left until then; one already past is no wait at all.
        let now = try #require(RetryPolicy.httpDate("Sun, 06 Nov 1994 08:49:37 GMT"))
        #expect(policy.retryAfter(header: "Sun, 06 Nov 1994 08:50:07 GMT", now: now) == .seconds(30))
        #expect(policy.retryAfter(header: "Sun, 06 Nov 1994 08:49:00 GMT", now: now) == .zero)
        #expect(policy.retryAfter(header: "Sun, 06 Nov 1994", now: now) == nil)
    }

    /// The origin of a fake server as error text shows it: its base URL, port included.
    static func origin(_ server: FakeOpenSkyServer) -> String { server.baseURL }
}
