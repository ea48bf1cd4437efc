import ModeS
import Testing

@testable import Tracking

@Suite struct TrackerTests {
    func message(_ hex: String) throws -> Message {
        let bits = try #require(ModeSBits(hex: hex))
        var validator = FrameValidator(trustAddressParity: true)
        let result = validator.validate(bits, time: 0)
        return MessageDecoder().decode(try #require(result))
    }

    @Test func mergesMessagesOfOneAircraft() throws {
        var tracker = Tracker()
        tracker.merge(try message("8D40621D58C386435CC412692AD6"), at: 1)
        tracker.merge(try message("8D40621D58C382D690C8AC2863A7"), at: 2)
        let state = try #require(tracker.state(of: 0x40621D))
        #expect(state.altitudeBaroFt == 38_000)
        let position = try #require(state.position)
        #expect(abs(position.latitude - 52.2572) < 1e-4)
        #expect(state.positionTime == 2)
        #expect(state.source == .adsb)
        #expect(state.messageCount == 2)
        #expect(!state.positionIsStale(at: 10))
        #expect(state.positionIsStale(at: 17.5))
    }

    /// Without `reporting` the message is merged all the same, and no update is made.
    @Test func anUnreportedMergeStillMerges() throws {
        var reported = Tracker()
        var unreported = Tracker()
        for (time, hex) in [(1.0, "8D40621D58C386435CC412692AD6"), (2, "8D40621D58C382D690C8AC2863A7")] {
            let update = reported.merge(try message(hex), at: time, heardAt: nil)
            #expect(update?.aircraft.icao == 0x40621D)
            #expect(unreported.merge(try message(hex), at: time, heardAt: nil, reporting: false) == nil)
        }
        #expect(unreported.state(of: 0x40621D) == reported.state(of: 0x40621D))
        #expect(unreported.state(of: 0x40621D)?.position != nil)
    }

    @Test func expiresSilentAircraft() throws {
        var tracker = Tracker()
        tracker.merge(try message("8D4840D6202CC371C32CE0576098"), at: 0)
        tracker.merge(try message("28001A1B5B4A1C"), at: 30)
        #expect(tracker.snapshot(at: 59).count == 2)
        #expect(tracker.snapshot(at: 61).map(\.icaoHex) == ["08e574"])
        tracker.expire(at: 61)
        #expect(tracker.count == 1)
        #expect(tracker.state(of: 0x08E574)?.source == .modeS)
        #expect(tracker.state(of: 0x08E574)?.squawk == "3615")
    }

    @Test func ignoresMessagesThatFailedParity() throws {
        var tracker = Tracker()
        var rejected = try message("8D4840D6202CC371C32CE0576098")
        rejected.crcOK = false
        tracker.merge(rejected, at: 0)
        #expect(tracker.count == 0)
    }

    @Test func externalUpdatesKeepWhatTheyDoNotCarry() throws {
        var tracker = Tracker()
        tracker.merge(try message("8D4840D6202CC371C32CE0576098"), at: 0)
        var update = AircraftState(icao: 0x4840D6, lastSeen: 5, source: .opensky)
        update.position = GeoPoint(latitude: 52.3, longitude: 4.8)
        update.altitudeBaroFt = 12_000
        tracker.merge(update)
        let state = try #require(tracker.state(of: 0x4840D6))
        #expect(state.callsign == "KLM1023")
        // Heard by our own receiver 5 s ago: the aircraft stays ADS-B (see TrackUpdateTests).
        #expect(state.source == .adsb)
        #expect(state.position == GeoPoint(latitude: 52.3, longitude: 4.8))
        #expect(state.positionTime == 5)
    }
}

/// An aircraft's CPR frames are paired with its own only: a non-ICAO address (a TIS-B
/// trackfile, an ADS-B vehicle's own number) with the same 24 bits is another aircraft.
@Suite struct TrackerAddressKindTests {
    @Test func framesOfANonICAOAddressArePairedApartFromTheICAOAircraftOfTheSameBits() throws {
        var validator = FrameValidator(trustAddressParity: true)
        func message(_ hex: String) throws -> Message {
            let bits = try #require(ModeSBits(hex: hex))
            let validated = validator.validate(bits, time: 0)
            return MessageDecoder().decode(try #require(validated))
        }
        let even = try message("8D40621D58C382D690C8AC2863A7")
        let odd = try message("8D40621D58C386435CC412692AD6")
        var other = odd
        other.df = 18
        other.capability = 1  // ADS-B with an address that is not an ICAO one
        var tracker = Tracker()
        tracker.merge(even, at: 1)
        tracker.merge(other, at: 2)
        #expect(tracker.count == 2)
        let otherKey = AircraftState.key(icao: 0x40621D, isICAO: false)
        #expect(tracker.state(of: otherKey) != nil)
        #expect(
            tracker.state(of: otherKey)?.position == nil,
            "its odd frame is not paired with the ICAO aircraft's even one")
        tracker.merge(odd, at: 3)
        let position = try #require(tracker.state(of: 0x40621D)?.position)
        #expect(abs(position.latitude - 52.26) < 0.02 && abs(position.longitude - 3.92) < 0.02, "\(position)")
    }
}

/// Whole states from another source (OpenSky) merged into the tracker.
@Suite struct TrackerStateUpdateTests {
    @Test func aStateUpdateCountsItsTrackAndNeverTakesAnOlderPosition() {
        var tracker = Tracker()
        var newer = AircraftState(icao: 0x4840D6, lastSeen: 100, source: .opensky)
        newer.position = GeoPoint(latitude: 52.3, longitude: 4.7)
        newer.positionTime = 100
        tracker.merge(newer)
        #expect(tracker.counts.tracks == 1)
        var older = AircraftState(icao: 0x4840D6, lastSeen: 101, source: .opensky)
        older.position = GeoPoint(latitude: 52.0, longitude: 4.0)
        older.positionTime = 90
        tracker.merge(older)
        #expect(tracker.state(of: 0x4840D6)?.position == GeoPoint(latitude: 52.3, longitude: 4.7))
        #expect(tracker.state(of: 0x4840D6)?.positionTime == 100)
        #expect(tracker.state(of: 0x4840D6)?.lastSeen == 101)
        #expect(tracker.counts.tracks == 1)
    }
}

/// A peer sending valid frames from ever new made-up addresses cannot grow the tracker
/// without bound.
@Suite struct TrackerCapacityTests {
    @Test func aFloodOfAddressesDropsTheAircraftHeardLongestAgo() throws {
        var validator = FrameValidator(trustAddressParity: true)
        let bits = try #require(ModeSBits(hex: "8D4840D6202CC371C32CE0576098"))
        let validated = validator.validate(bits, time: 0)
        let frame = try #require(validated)
        var template = MessageDecoder().decode(frame)
        // A small limit: the test runs beside others that measure the process's memory.
        var tracker = Tracker(maximumAircraft: 2_000)
        let limit = tracker.maximumAircraft
        for index in 0..<limit {
            template.icao = UInt32(index)
            tracker.merge(template, at: Double(index) / 1_000)
        }
        #expect(tracker.count == limit)
        #expect(tracker.counts.tracksDropped == 0)
        // One more makes room by dropping the tenth heard longest ago.
        template.icao = 0xFFFFFF
        tracker.merge(template, at: Double(limit) / 1_000)
        #expect(tracker.count == limit - limit / 10 + 1)
        #expect(tracker.counts.tracksDropped == limit / 10)
        #expect(tracker.state(of: 0) == nil && tracker.state(of: UInt32(limit / 10 - 1)) == nil)
        #expect(tracker.state(of: UInt32(limit / 10)) != nil && tracker.state(of: 0xFFFFFF) != nil)
        // A state update from another source (OpenSky) makes room the same way.
        for index in 0..<(limit / 10 - 1) {
            tracker.merge(AircraftState(icao: 0x800000 + UInt32(index), lastSeen: 100, source: .opensky))
        }
        #expect(tracker.count == limit)
        tracker.merge(AircraftState(icao: 0xABCDEF, lastSeen: 100, source: .opensky))
        #expect(tracker.count == limit - limit / 10 + 1 && tracker.counts.tracksDropped == 2 * (limit / 10))
    }
}
