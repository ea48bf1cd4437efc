import Foundation
import ModeS
import Testing

@testable import Simulator

/// Every message a simulated sky sends decodes (with ModeS's `MessageDecoder`) to the true
/// values it was made from, within the resolution of its fields.
@Suite struct RoundTripTests {
    static let settingsList: [Simulation.Settings] = {
        var quiet = Simulation.Settings()
        quiet.duration = 20
        quiet.aircraft = 40
        quiet.seed = 11
        var busy = quiet
        busy.busy = true
        busy.aircraft = 60
        busy.seed = 12
        return [quiet, busy]
    }()

    /// Building a validator builds its syndrome tables: do it once.
    nonisolated(unsafe) static var validator = FrameValidator(trustAddressParity: true)
    static let lock = NSLock()

    static func decode(_ bits: ModeSBits) -> Message? {
        lock.lock()
        let frame = validator.validate(bits, time: 0)
        lock.unlock()
        guard let frame else { return nil }
        return MessageDecoder().decode(frame)
    }

    @Test(arguments: settingsList)
    func everyMessageDecodesToItsTruth(settings: Simulation.Settings) throws {
        let simulation = try Simulation(settings: settings)
        var kinds = Set<String>()
        for transmission in simulation.transmissions {
            let track = simulation.scenario.aircraft[transmission.aircraft]
            let truth = track.state(at: transmission.time)
            let message = try #require(Self.decode(transmission.bits), "\(transmission.bits.hex)")
            #expect(message.icao == track.icao)
            #expect(message.correctedBits == 0)
            kinds.insert("\(message.df)/\(message.typeCode ?? 0)")
            check(message, truth: truth, track: track, hex: transmission.bits.hex)
        }
        // The sky exercises every kind of message the simulator sends.
        let airborneKinds = ["17/11", "17/19", "17/29", "17/31", "17/28", "11/0", "4/0", "5/0", "20/0", "21/0"]
        for kind in airborneKinds { #expect(kinds.contains(kind), "no \(kind) in \(kinds.sorted())") }
        #expect(kinds.contains { $0.hasPrefix("17/") && ["1", "2", "3", "4"].contains(String($0.dropFirst(3))) })
        #expect(kinds.contains("17/6"))
    }

    private func check(_ m: Message, truth: TrueAircraftState, track: AircraftTrack, hex: String) {
        let baro = truth.altitudeBaroFt
        switch (m.df, m.typeCode ?? 0) {
        case (17, 1...4):
            #expect(m.callsign == track.callsign, "\(hex)")
            #expect(m.category == track.category, "\(hex)")
        case (17, 5...8):
            #expect(m.onGround == true)
            let speed = m.groundSpeedKt ?? -1
            // The movement code holds the lower bound of a bin whose width grows with speed.
            let v = truth.groundSpeedKt
            let bin = v < 1 ? 0.125 : v < 2 ? 0.25 : v < 15 ? 0.5 : v < 70 ? 1 : v < 100 ? 2 : 5
            #expect(speed <= v && v < speed + bin, "\(hex) speed \(speed) truth \(v)")
            if truth.groundSpeedKt > 0 {
                #expect(angleDifference(m.trackDeg ?? -999, truth.trackDeg) <= 360.0 / 256 + 1e-9, "\(hex)")
            }
            checkPosition(m, truth: truth, surface: true, hex: hex)
        case (17, 9...18):
            #expect(abs(Double(m.altitudeBaroFt ?? -99999) - baro) <= 13, "\(hex)")
            checkPosition(m, truth: truth, surface: false, hex: hex)
        case (17, 20...22):
            #expect(abs(Double(m.altitudeGeoFt ?? -99999) - truth.altitudeGeoFt) <= 3, "\(hex)")
            checkPosition(m, truth: truth, surface: false, hex: hex)
        case (17, 19):
            if track.reportsAirspeed {
                #expect(abs(Double(m.airspeedKt ?? -999) - truth.groundSpeedKt) <= 1, "\(hex)")
                #expect(angleDifference(m.headingDeg ?? -999, truth.trackDeg) <= 0.2, "\(hex)")
            } else {
                #expect(abs((m.groundSpeedKt ?? -999) - truth.groundSpeedKt) <= 0.71, "\(hex)")
                #expect(angleDifference(m.trackDeg ?? -999, truth.trackDeg) <= 0.5, "\(hex)")
                if !track.gnssPositionsOnly {
                    let difference = truth.altitudeGeoFt - truth.altitudeBaroFt
                    #expect(abs(Double(m.geoMinusBaroFt ?? -99999) - difference) <= 13, "\(hex)")
                }
            }
            #expect(abs(Double(m.verticalRateFpm ?? -99999) - truth.verticalRateFpm) <= 32, "\(hex)")
        case (17, 28):
            #expect(m.squawk == track.squawk, "\(hex)")
            #expect(m.emergency == 0)
        case (17, 29):
            let selected = MessageFactory.selectedAltitude(track, truth)
            #expect(abs((m.selectedAltitudeFt ?? -99999) - selected) <= 16, "\(hex)")
            #expect(abs((m.baroSettingHpa ?? 0) - 1013.2) <= 0.4, "\(hex)")
            #expect(angleDifference(m.selectedHeadingDeg ?? -999, truth.trackDeg) <= 0.36, "\(hex)")
            #expect(m.autopilot == true)
        case (17, 31):
            #expect(m.adsbVersion == 2, "\(hex)")
        case (11, _):
            #expect(m.capability == (truth.onGround ? 4 : 5))
        case (4, _), (20, _):
            // Half a step of the code, plus the half foot the truth is rounded by before coding.
            let tolerance = track.gillhamAltitude && m.df == 4 ? 50.5 : 13
            #expect(abs(Double(m.altitudeBaroFt ?? -99999) - baro) <= tolerance, "\(hex)")
            #expect(m.flightStatus == (truth.onGround ? 1 : 0))
            if m.df == 20 { checkCommB(m, truth: truth, track: track, hex: hex) }
        case (5, _), (21, _):
            #expect(m.squawk == track.squawk, "\(hex)")
            if m.df == 21 { checkCommB(m, truth: truth, track: track, hex: hex) }
        default:
            Issue.record("unexpected message \(hex)")
        }
    }

    private func checkCommB(_ m: Message, truth: TrueAircraftState, track: AircraftTrack, hex: String) {
        // BDS 2,0 is unambiguous; 4,0 and 5,0 are checked whenever the decoder identifies them.
        let hexBits = ModeSBits(hex: hex)!
        if hexBits.field(33, 40) == 0x20 {
            #expect(m.bds == "2,0", "\(hex)")
            #expect(m.callsign == track.callsign, "\(hex)")
        }
        if m.bds == "4,0" {
            #expect(
                abs((m.selectedAltitudeFt ?? -99999) - MessageFactory.selectedAltitude(track, truth)) <= 16, "\(hex)")
        }
        if m.bds == "5,0" {
            #expect(abs(Double(m.trueAirspeedKt ?? -999) - truth.groundSpeedKt) <= 1, "\(hex)")
        }
    }

    private func checkPosition(_ m: Message, truth: TrueAircraftState, surface: Bool, hex: String) {
        guard let cpr = m.cpr else {
            Issue.record("no CPR in \(hex)")
            return
        }
        #expect(cpr.isSurface == surface)
        // Local decoding relative to a point 5 km away recovers the true position.
        let reference = truth.position.offset(north: 3000, east: -4000)
        guard
            let decoded = CPR.localDecode(
                cpr, reference: GeoPoint(latitude: reference.latitude, longitude: reference.longitude))
        else {
            Issue.record("\(hex) has no local decode")
            return
        }
        let error = truth.position.distance(to: GeoPoint(latitude: decoded.latitude, longitude: decoded.longitude))
        #expect(error < (surface ? 3 : 10), "\(hex) off by \(error) m")
    }

    /// Global (even/odd pair) decoding of consecutive positions gives the newer frame's true
    /// position.
    @Test func evenOddPairsDecodeGlobally() throws {
        var settings = Simulation.Settings()
        settings.duration = 10
        settings.aircraft = 30
        settings.seed = 5
        let simulation = try Simulation(settings: settings)
        var last: [Int: (CPRFrame, Double)] = [:]
        var pairs = 0
        for transmission in simulation.transmissions {
            guard let m = Self.decode(transmission.bits), let cpr = m.cpr else { continue }
            defer { last[transmission.aircraft] = (cpr, transmission.time) }
            guard let (previous, previousTime) = last[transmission.aircraft], previous.isOdd != cpr.isOdd,
                previous.isSurface == cpr.isSurface
            else { continue }
            let track = simulation.scenario.aircraft[transmission.aircraft]
            let truth = track.state(at: transmission.time)
            // A pair that straddles a longitude-zone boundary cannot be decoded, by design.
            let before = track.state(at: previousTime).position.latitude
            if CPREncoder.nl(before) != CPREncoder.nl(truth.position.latitude) { continue }
            let even = cpr.isOdd ? previous : cpr
            let odd = cpr.isOdd ? cpr : previous
            let receiver = GeoPoint(latitude: settings.receiver.latitude, longitude: settings.receiver.longitude)
            let decoded = try #require(
                CPR.globalDecode(
                    even: even, odd: odd, useOdd: cpr.isOdd,
                    reference: cpr.isSurface ? receiver : nil))
            let error = truth.position.distance(to: GeoPoint(latitude: decoded.latitude, longitude: decoded.longitude))
            #expect(error < 10, "\(transmission.bits.hex) off by \(error) m")
            pairs += 1
        }
        #expect(pairs > 300)
    }
}

func angleDifference(_ a: Double, _ b: Double) -> Double {
    let d = abs(a - b).truncatingRemainder(dividingBy: 360)
    return min(d, 360 - d)
}

extension Simulation.Settings: CustomTestStringConvertible {
    public var testDescription: String { busy ? "busy sky" : "quiet sky" }
}
