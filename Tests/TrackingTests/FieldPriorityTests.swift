import ModeS
import Testing

@testable import Tracking

/// Address types (aircraft.json's `type`), per-field source priority and the fields that
/// readers of aircraft.json expect from each kind of message.
@Suite struct FieldPriorityTests {
    /// Airborne position, even CPR, KLM-style test aircraft 40621D at 38,000 ft.
    static let position = "8D40621D58C382D690C8AC2863A7"
    /// Identification of 4840D6, "KLM1023".
    static let identification = "8D4840D6202CC371C32CE0576098"
    /// Airborne velocity of 485020 (ground speed, vertical rate from GNSS).
    static let velocity = "8D485020994409940838175B284F"

    /// `hex` turned into downlink format `df` (with control field `cf` for DF18) and with the
    /// message bits `set` raised, its parity recomputed, decoded.
    func message(_ hex: String, df: Int = 17, cf: Int? = nil, set: [Int] = [], clear: [Int] = []) throws -> Message {
        var bits = try #require(ModeSBits(hex: hex))
        bits.setField(1, 5, UInt64(df))
        if let cf { bits.setField(6, 8, UInt64(cf)) }
        for bit in set { bits.setBit(bit, true) }
        for bit in clear { bits.setBit(bit, false) }
        bits = CRC.withParity(bits)
        return MessageDecoder().decode(Frame(bits: bits, address: UInt32(bits.field(9, 32))))
    }

    @Test func everyControlFieldOfDF18HasItsKind() throws {
        let cases: [(cf: Int, imf: Bool, type: AddressType)] = [
            (0, false, .adsbICAONonTransponder), (1, false, .adsbOther), (2, false, .tisbICAO),
            (2, true, .tisbTrackfile), (5, false, .tisbOther), (6, false, .adsrICAO), (6, true, .adsrOther),
            (4, false, .unknown)
        ]
        for entry in cases {
            // ME bit 8 of an airborne position is the IMF in TIS-B and ADS-R (message bit 40).
            let decoded = try message(
                Self.position, df: 18, cf: entry.cf, set: entry.imf ? [40] : [], clear: entry.imf ? [] : [40])
            #expect(AddressType(of: decoded, multilaterated: false) == entry.type, "CF \(entry.cf) IMF \(entry.imf)")
        }
        #expect(AddressType(of: try message(Self.position), multilaterated: false) == .adsbICAO)
        #expect(AddressType(of: try message(Self.position), multilaterated: true) == .mlat)
        #expect(AddressType(of: Message(df: 4, icao: 1, crcOK: nil), multilaterated: false) == .modeS)
        #expect(
            AddressType.allCases.filter(\.isICAO) == [
                .adsbICAO, .adsbICAONonTransponder, .adsrICAO, .tisbICAO, .mlat, .other, .modeS
            ])
    }

    @Test func aNonICAOAddressIsAnotherAircraftAndKeepsItsCallsign() throws {
        var tracker = Tracker()
        tracker.merge(try message(Self.identification), at: 0)
        tracker.merge(try message(Self.identification, df: 18, cf: 1), at: 1)
        let aircraft = tracker.snapshot(at: 1)
        #expect(aircraft.count == 2)
        #expect(aircraft.map(\.addressType) == [.adsbICAO, .adsbOther])
        #expect(aircraft.map(\.callsign) == ["KLM1023", "KLM1023"])
        #expect(aircraft.map(\.icao) == [0x4840D6, 0x4840D6])
        #expect(tracker.state(of: 0x4840D6 | 1 << 24)?.addressType == .adsbOther)
    }

    @Test func aModeSReplyNeverDowngradesARecentADSBType() throws {
        var tracker = Tracker()
        tracker.merge(try message(Self.position), at: 0)
        for second in stride(from: 1.0, through: Tracker.sourceTimeout, by: 1) {
            tracker.merge(Message(df: 5, icao: 0x40621D, crcOK: nil), at: second)
            #expect(tracker.state(of: 0x40621D)?.addressType == .adsbICAO, "at \(second) s")
        }
        // TIS-B about the same aircraft is less direct than its own ADS-B ...
        tracker.merge(try message(Self.position, df: 18, cf: 2, clear: [40]), at: Tracker.sourceTimeout)
        #expect(tracker.state(of: 0x40621D)?.addressType == .adsbICAO)
        // ... and after the timeout the most direct kind heard since takes over.
        tracker.merge(try message(Self.position, df: 18, cf: 2, clear: [40]), at: Tracker.sourceTimeout + 1)
        #expect(tracker.state(of: 0x40621D)?.addressType == .tisbICAO)
        tracker.merge(try message(Self.position), at: Tracker.sourceTimeout + 2)
        #expect(tracker.state(of: 0x40621D)?.addressType == .adsbICAO)
    }

    @Test func verticalRatesGoWhereTheirSourceSays() throws {
        var tracker = Tracker()
        // ME bit 36 (message bit 68) set: the rate comes from the barometer.
        let baro = try message(Self.velocity, set: [68])
        #expect(baro.verticalRateSource == .baro)
        tracker.merge(baro, at: 0)
        var state = try #require(tracker.state(of: 0x485020))
        #expect(state.baroRateFpm == baro.verticalRateFpm && state.geomRateFpm == nil)
        let gnss = try message(Self.velocity)
        #expect(gnss.verticalRateSource == .gnss)
        tracker.merge(gnss, at: 1)
        state = try #require(tracker.state(of: 0x485020))
        #expect(state.geomRateFpm == gnss.verticalRateFpm)
        #expect(state.baroRateFpm == baro.verticalRateFpm)
    }

    @Test func aCommBValueWaitsForTheADSBOneToGoStale() throws {
        var tracker = Tracker()
        let adsb = try message(Self.velocity)
        tracker.merge(adsb, at: 0)
        var commB = Message(df: 20, icao: 0x485020, crcOK: nil)
        commB.groundSpeedKt = 300
        commB.trueAirspeedKt = 310
        tracker.merge(commB, at: 5)
        var state = try #require(tracker.state(of: 0x485020))
        #expect(state.groundSpeedKt == adsb.groundSpeedKt)
        #expect(state.trueAirspeedKt == 310, "nothing more direct holds the airspeed")
        tracker.merge(commB, at: Tracker.sourceTimeout + 0.5)
        state = try #require(tracker.state(of: 0x485020))
        #expect(state.groundSpeedKt == 300)
        #expect(state.fieldSources[.groundSpeed]?.type == .modeS)
    }

    @Test func sourcesOfFieldsMakeTheMLATAndTISBLists() {
        var sources = FieldSources()
        let taken = [
            sources.accept(.position, from: .tisbICAO, at: 0, timeout: 15),
            sources.accept(.altitudeBaro, from: .mlat, at: 0, timeout: 15),
            sources.accept(.callsign, from: .adsbICAO, at: 0, timeout: 15),
            sources.accept(.callsign, from: .tisbICAO, at: 1, timeout: 15)
        ]
        #expect(taken == [true, true, true, false])
        #expect(sources.jsonNames { $0.isTISB } == ["lat", "lon"])
        #expect(sources.jsonNames { $0 == .mlat } == ["alt_baro"])
        #expect(sources[.callsign] == FieldSources.Stamp(type: .adsbICAO, time: 0))
    }

    @Test func integrityAndContainmentFollowTheTypeCodeAndSupplements() {
        #expect(NavigationIntegrity.of(typeCode: 11, supplementA: false, supplementB: false)! == (8, 186))
        #expect(NavigationIntegrity.of(typeCode: 11, supplementA: true, supplementB: true)! == (9, 75))
        #expect(NavigationIntegrity.of(typeCode: 9, supplementA: false, supplementB: false)! == (11, 8))
        #expect(NavigationIntegrity.of(typeCode: 10, supplementA: false, supplementB: false)! == (10, 25))
        #expect(NavigationIntegrity.of(typeCode: 16, supplementA: false, supplementB: false)! == (2, 14_816))
        #expect(NavigationIntegrity.of(typeCode: 13, supplementA: true, supplementB: false)!.rcMeters == nil)
        #expect(NavigationIntegrity.of(typeCode: 18, supplementA: false, supplementB: false)!.nic == 0)
        #expect(NavigationIntegrity.of(typeCode: 19, supplementA: false, supplementB: false) == nil)
    }

    @Test func positionsCarryTheirIntegrity() throws {
        var tracker = Tracker()
        tracker.merge(try message(Self.position), at: 0)
        let state = try #require(tracker.state(of: 0x40621D))
        // Type code 11 without supplements: NIC 8, within 0.1 NM.
        #expect(state.nic == 8 && state.radiusOfContainmentM == 186)
    }
}
