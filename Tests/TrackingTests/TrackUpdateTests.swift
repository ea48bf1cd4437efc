import Foundation
import ModeS
import TestSupport
import Testing

@testable import Tracking

/// What a merge tells its listeners, and which source an aircraft is said to come from.
@Suite struct TrackUpdateTests {
    func message(_ hex: String) throws -> Message {
        let frame = FrameValidator(trustAddressParity: true).validatingCopy(hex: hex)
        return MessageDecoder().decode(try #require(frame))
    }

    func identityReply(_ icao: UInt32) -> Message {
        MessageDecoder().decode(OutputTestFrames.identityReply(df: 5, icao: icao, squawk: "1234"))
    }

    @Test func theUpdateCarriesThePositionThisMessageResolved() throws {
        var tracker = Tracker()
        let firstUpdate = tracker.merge(try message("8D40621D58C386435CC412692AD6"), at: 1)
        let first = try #require(firstUpdate)
        #expect(first.message.latitude == nil)
        #expect(first.aircraft.position == nil)
        let secondUpdate = tracker.merge(try message("8D40621D58C382D690C8AC2863A7"), at: 2)
        let second = try #require(secondUpdate)
        let latitude = try #require(second.message.latitude)
        #expect(abs(latitude - 52.2572) < 1e-4)
        #expect(second.aircraft.position?.latitude == latitude)
        // A reply without a position leaves the message's position empty, the aircraft's not.
        let replyUpdate = tracker.merge(identityReply(0x40621D), at: 3)
        let reply = try #require(replyUpdate)
        #expect(reply.message.latitude == nil)
        #expect(reply.aircraft.position != nil)
        #expect(reply.aircraft.squawk == "1234")
    }

    @Test func anADSBAircraftStaysADSBWhileItAnswersInterrogations() throws {
        var tracker = Tracker()
        tracker.merge(try message("8D40621D58C386435CC412692AD6"), at: 0)
        tracker.merge(identityReply(0x40621D), at: 1)
        #expect(tracker.state(of: 0x40621D)?.source == .adsb)
        tracker.merge(identityReply(0x40621D), at: Tracker.sourceTimeout - 0.5)
        #expect(tracker.state(of: 0x40621D)?.source == .adsb)
        // Once ADS-B has been silent for longer than the timeout, Mode S takes over ...
        tracker.merge(identityReply(0x40621D), at: Tracker.sourceTimeout + 0.5)
        #expect(tracker.state(of: 0x40621D)?.source == .modeS)
        // ... and ADS-B takes it back at once.
        tracker.merge(try message("8D40621D58C382D690C8AC2863A7"), at: Tracker.sourceTimeout + 1)
        #expect(tracker.state(of: 0x40621D)?.source == .adsb)
    }

    @Test func aModeSAircraftBecomesADSBAtItsFirstSquitter() throws {
        var tracker = Tracker()
        tracker.merge(identityReply(0x40621D), at: 0)
        #expect(tracker.state(of: 0x40621D)?.source == .modeS)
        tracker.merge(try message("8D40621D58C386435CC412692AD6"), at: 0.1)
        #expect(tracker.state(of: 0x40621D)?.source == .adsb)
    }

    @Test func anAggregatorDoesNotOverrideOurOwnReception() throws {
        var tracker = Tracker()
        tracker.merge(try message("8D40621D58C386435CC412692AD6"), at: 10)
        var vector = AircraftState(icao: 0x40621D, lastSeen: 11, source: .opensky)
        vector.callsign = "KLM42"
        tracker.merge(vector)
        #expect(tracker.state(of: 0x40621D)?.source == .adsb)
        #expect(tracker.state(of: 0x40621D)?.callsign == "KLM42")
    }

    @Test func readingNeverForgetsExpiringDoes() throws {
        let tracker = WiredTracker(receiver: nil)
        let old = Date().timeIntervalSince1970 - Tracker.expireAfter - 5
        let frame = try #require(
            FrameValidator(trustAddressParity: true).validatingCopy(hex: "8D4840D6202CC371C32CE0576098"))
        tracker.accept(frame, at: old)
        #expect(tracker.snapshot().aircraft.isEmpty)
        #expect(tracker.expire() == 1)
        #expect(tracker.expire() == 0)
    }

    @Test func listenersHearTheFrameAndTheUpdate() throws {
        let tracker = WiredTracker(receiver: nil)
        let heard = Heard()
        tracker.addFrameListener { update in heard.add(update) }
        let frame = try #require(
            FrameValidator(trustAddressParity: true).validatingCopy(hex: "8D4840D6202CC371C32CE0576098"))
        tracker.accept(frame, at: Date().timeIntervalSince1970)
        let update = try #require(heard.updates.first)
        #expect(update.frame?.bits == frame.bits)
        #expect(update.message.callsign == "KLM1023")
        #expect(update.aircraft.callsign == "KLM1023")
    }
}

/// Updates collected from a listener.
final class Heard: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [TrackUpdate] = []
    func add(_ update: TrackUpdate) { lock.withLock { list.append(update) } }
    var updates: [TrackUpdate] { lock.withLock { list } }
}

extension FrameValidator {
    /// The frame of `hex` as this validator accepts it.
    func validatingCopy(hex: String) -> Frame? {
        var copy = self
        guard let bits = ModeSBits(hex: hex) else { return nil }
        return copy.validate(bits, time: 0)
    }
}
