import FeedProtocol
import Foundation
import Logging
import SkyProjection
import Synchronization
import Testing

@testable import FeedServer

/// The magnetic declination in greetings and view acknowledgements: at the receiver, then at
/// the client's own observer, null with neither, and one warning past the model's years.
@Suite struct FeedDeclinationTests {
    /// 2026-06-01T00:00Z, within WMM2025's years.
    static let june2026 = 1_780_272_000.0
    static let receiver = Observer(latitude: 52.3, longitude: 4.75, altitudeMetres: 15)

    /// A hub whose wall clock reads `time`, logging to `log`.
    static func hub(at time: Double, log: LogLines = LogLines()) -> FeedHub {
        FeedHub(configuration: FeedConfiguration(socketPath: "/unused", logger: log.logger, wallClock: { time }))
    }

    /// The declination the feed should write for `observer` at `time`: the model's, to 0.01°.
    static func expected(_ observer: Observer, at time: Double) -> Double {
        let degrees = MagneticModel.wmm2025.declination(
            latitude: observer.latitude, longitude: observer.longitude, altitudeMetres: observer.altitudeMetres,
            decimalYear: DecimalYear.from(secondsSince1970: time))
        return (degrees * 100).rounded() / 100
    }

    /// The `declination_deg` of a line: a number, or nil for null (a missing key fails).
    static func declination(_ line: String) throws -> Double? {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let value = try #require(object["declination_deg"], "no declination_deg in \(line)")
        return value is NSNull ? nil : try #require(value as? Double)
    }

    @Test func theHelloCarriesTheDeclinationAtTheReceiverOrNull() throws {
        let hub = Self.hub(at: Self.june2026)
        let before = FeedGoldenTests.Recorder.silent(hub: hub)
        #expect(try Self.declination(try #require(before.lines().first)) == nil)
        hub.announce(observer: Self.receiver, source: "test")
        let after = FeedGoldenTests.Recorder.silent(hub: hub)
        let line = try #require(after.lines().first)
        #expect(try Self.declination(line) == Self.expected(Self.receiver, at: Self.june2026))
        #expect(line.hasSuffix(",\"declination_deg\":\(Self.expected(Self.receiver, at: Self.june2026))}\n"))
        guard case .hello(let hello) = try FeedLine(parsing: String(line.dropLast())) else {
            Issue.record("not a hello: \(line)")
            return
        }
        #expect(hello.declinationDeg == Self.expected(Self.receiver, at: Self.june2026))
    }

    @Test func theViewAcknowledgementCarriesItAtTheClientsObserver() throws {
        let hub = Self.hub(at: Self.june2026)
        let client = FeedGoldenTests.Recorder.silent(hub: hub)
        _ = client.lines()
        func answer(_ command: String) throws -> Double? {
            client.client.receive(command: Array(command.utf8))
            return try Self.declination(try #require(client.lines().last))
        }
        // No receiver, no observer: nothing to say.
        #expect(try answer(#"{"type":"view","heading_deg":10}"#) == nil)
        let sydney = Observer(latitude: -33.87, longitude: 151.21, altitudeMetres: 30)
        let atSydney = try answer(#"{"type":"view","observer":{"lat":-33.87,"lon":151.21,"alt_m":30}}"#)
        #expect(atSydney == Self.expected(sydney, at: Self.june2026))
        // Sydney's declination is about 13° east.
        #expect((atSydney ?? 0) > 11 && (atSydney ?? 0) < 15)
        hub.announce(observer: Self.receiver, source: "test")
        #expect(try answer(#"{"type":"view","heading_deg":20}"#) == Self.expected(sydney, at: Self.june2026))
        #expect(try answer(#"{"type":"view","observer":null}"#) == Self.expected(Self.receiver, at: Self.june2026))
    }

    @Test func pastTheModelsYearsItStillAnswersAndWarnsOnce() throws {
        let log = LogLines()
        let in2031 = 1_924_992_000.0  // 2031-01-01T00:00Z
        let hub = Self.hub(at: in2031, log: log)
        hub.announce(observer: Self.receiver, source: "test")
        for _ in 0..<3 {
            let client = FeedGoldenTests.Recorder.silent(hub: hub)
            #expect(
                try Self.declination(try #require(client.lines().first)) == Self.expected(Self.receiver, at: in2031))
        }
        let warnings = log.lines.filter { $0.contains("outside WMM2025's years") }
        #expect(warnings.count == 1, "\(log.lines)")

        let current = LogLines()
        let inside = Self.hub(at: Self.june2026, log: current)
        inside.announce(observer: Self.receiver, source: "test")
        _ = FeedGoldenTests.Recorder.silent(hub: inside).lines()
        #expect(!current.lines.contains { $0.contains("outside") })
    }
}

/// Keeps the messages logged through its logger.
final class LogLines: Sendable {
    private let storage = Mutex<[String]>([])

    /// Every message so far.
    var lines: [String] { storage.withLock { $0 } }

    /// A logger writing here, at every level.
    var logger: Logger {
        Logger(label: "test") { _ in Handler(lines: self) }
    }

    fileprivate func append(_ line: String) { storage.withLock { $0.append(line) } }

    private struct Handler: LogHandler {
        let lines: LogLines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) { lines.append(event.message.description) }
    }
}
