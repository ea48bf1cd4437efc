import IQ
import Simulator
import TestSupport
import Testing

@testable import ModeS
@testable import ModeSDemod

/// What aircraft report in their extended squitters, and address/parity replies held against
/// it (`SquitterReports`, `AcceptancePolicy.agreesWithSquitters`).
@Suite(.computeBound) struct SquitterReportsTests {
    static let named: UInt32 = 0x4CA2B1
    static let other: UInt32 = 0x4CA2F3

    /// A table where `named` reported 35,000 ft at 10 s and squawk 1234 at 11 s.
    static func reports() -> SquitterReports {
        var reports = SquitterReports()
        reports.record(
            ExtendedSquitterEncoder.airbornePosition(
                icao: named, latitude: 52.3, longitude: 4.8, odd: false,
                altitudeFt: 35_000), address: named, at: 10)
        reports.record(ExtendedSquitterEncoder.aircraftStatus(icao: named, squawk: "1234"), address: named, at: 11)
        return reports
    }

    @Test func positionsAndStatusSquittersAreRecorded() {
        let reports = Self.reports()
        #expect(reports.altitude(of: Self.named, at: 12) == .init(value: 35_000, time: 10))
        #expect(reports.identity(of: Self.named, at: 12)?.value == IdentityCode.encode(squawk: "1234").map(Int.init))
        #expect(reports.altitude(of: Self.other, at: 12) == nil)
        // Held for 30 s only.
        #expect(reports.altitude(of: Self.named, at: 40) != nil)
        #expect(reports.altitude(of: Self.named, at: 40.5) == nil)
        #expect(reports.identity(of: Self.named, at: 41.5) == nil)
    }

    @Test func otherFormatsAndTypeCodesReportNothing() {
        var reports = SquitterReports()
        reports.record(
            ExtendedSquitterEncoder.surfacePosition(
                icao: Self.named, latitude: 52.3, longitude: 4.8,
                odd: false, groundSpeedKt: 12, trackDeg: 90),
            address: Self.named, at: 1)
        reports.record(
            ReplyEncoder.altitudeReply(icao: Self.named, altitudeFt: 20_000, onGround: false),
            address: Self.named, at: 1)
        #expect(reports.count == 0)
    }

    @Test func theTableKeepsToTheAircraftHeardLately() {
        var reports = SquitterReports()
        // 5,000 aircraft one after another, one a tenth of a second: at most 300 are fresh.
        for index in 0..<5_000 {
            let address = 0x400000 + UInt32(index)
            reports.record(
                ExtendedSquitterEncoder.airbornePosition(
                    icao: address, latitude: 52, longitude: 4, odd: false,
                    altitudeFt: 10_000), address: address, at: Double(index) / 10)
        }
        #expect(reports.count < 2_100)
        #expect(reports.altitude(of: 0x400000 + 4_999, at: 500) != nil)
    }

    @Test func anAltitudeReplyMustAgreeWithTheReportedAltitude() {
        let reports = Self.reports()
        func agrees(_ feet: Int, at time: Double, naming address: UInt32 = Self.named) -> Bool {
            AcceptancePolicy.agreesWithSquitters(
                ReplyEncoder.altitudeReply(icao: address, altitudeFt: feet, onGround: false),
                reports: reports, at: time)
        }
        #expect(agrees(35_000, at: 10))
        #expect(agrees(35_300, at: 10))
        #expect(!agrees(35_400, at: 10))
        // A climb of up to 100 ft a second since.
        #expect(agrees(35_800, at: 15))
        #expect(!agrees(36_000, at: 15))
        #expect(!agrees(24_175, at: 11))
        // Nothing reported, or too long ago: nothing to hold against.
        #expect(agrees(24_175, at: 11, naming: Self.other))
        #expect(agrees(24_175, at: 41))
        // DF20 the same.
        let commB = ReplyEncoder.commBAltitudeReply(icao: Self.named, altitudeFt: 24_175, onGround: false, mb: 0)
        #expect(!AcceptancePolicy.agreesWithSquitters(commB, reports: reports, at: 11))
    }

    @Test func anIdentityReplyMustCarryTheReportedCode() {
        let reports = Self.reports()
        func agrees(_ squawk: String, at time: Double) -> Bool {
            AcceptancePolicy.agreesWithSquitters(
                ReplyEncoder.identityReply(icao: Self.named, squawk: squawk, onGround: false),
                reports: reports, at: time)
        }
        #expect(agrees("1234", at: 12))
        #expect(!agrees("1235", at: 12))
        #expect(agrees("1235", at: 42))
        let commB = ReplyEncoder.commBIdentityReply(icao: Self.named, squawk: "7700", onGround: false, mb: 0)
        #expect(!AcceptancePolicy.agreesWithSquitters(commB, reports: reports, at: 12))
    }

    @Test func aThreeBitRepairToAReservedTypeCodeIsRefused() {
        // Nothing reported, so only the type code counts: 25-27 and 30 are reserved.
        let reports = SquitterReports()
        let status = ExtendedSquitterEncoder.aircraftStatus(icao: Self.named, squawk: "1234")
        #expect(AcceptancePolicy.repairAgreesWithSquitters(status, reports: reports, at: 13))
        for typeCode: UInt64 in [24, 25, 26, 27, 28, 29, 30, 31] {
            var other = status
            other.setField(33, 37, typeCode)
            other = CRC.withParity(other, overlay: 0)
            #expect(
                AcceptancePolicy.repairAgreesWithSquitters(other, reports: reports, at: 13)
                    == ![25, 26, 27, 30].contains(typeCode), "type code \(typeCode)")
        }
    }

    @Test func aThreeBitRepairMustRepeatWhatSeldomChanges() {
        var reports = Self.reports()
        let callsign = ExtendedSquitterEncoder.identification(icao: Self.named, callsign: "KLM1234", category: "A3")
        reports.record(callsign, address: Self.named, at: 12)
        #expect(AcceptancePolicy.repairAgreesWithSquitters(callsign, reports: reports, at: 13))
        let other = ExtendedSquitterEncoder.identification(icao: Self.named, callsign: "KLM1284", category: "A3")
        #expect(!AcceptancePolicy.repairAgreesWithSquitters(other, reports: reports, at: 13))
        // Once the last callsign is too old, or for an aircraft not heard, nothing to hold against.
        #expect(AcceptancePolicy.repairAgreesWithSquitters(other, reports: reports, at: 43))
        let unheard = ExtendedSquitterEncoder.identification(icao: Self.other, callsign: "KLM1284", category: "A3")
        #expect(AcceptancePolicy.repairAgreesWithSquitters(unheard, reports: reports, at: 13))
        // The status squitter recorded by `reports()`, and another squawk.
        #expect(
            AcceptancePolicy.repairAgreesWithSquitters(
                ExtendedSquitterEncoder.aircraftStatus(icao: Self.named, squawk: "1234"), reports: reports, at: 13))
        #expect(
            !AcceptancePolicy.repairAgreesWithSquitters(
                ExtendedSquitterEncoder.aircraftStatus(icao: Self.named, squawk: "7700"), reports: reports, at: 13))
        // A position: its altitude as for an altitude reply.
        func position(_ feet: Int) -> ModeSBits {
            ExtendedSquitterEncoder.airbornePosition(
                icao: Self.named, latitude: 52.31, longitude: 4.81, odd: true,
                altitudeFt: feet)
        }
        #expect(AcceptancePolicy.repairAgreesWithSquitters(position(35_100), reports: reports, at: 11))
        #expect(!AcceptancePolicy.repairAgreesWithSquitters(position(31_000), reports: reports, at: 11))
        // A surface position from an aircraft whose squitters put it in the air: refused while
        // that altitude is held; once it is too old, or for an aircraft not heard, it stands.
        var surface = position(35_000)
        surface.setField(33, 37, 6)
        surface = CRC.withParity(surface, overlay: 0)
        #expect(!AcceptancePolicy.repairAgreesWithSquitters(surface, reports: reports, at: 11))
        #expect(AcceptancePolicy.repairAgreesWithSquitters(surface, reports: reports, at: 41))
        #expect(AcceptancePolicy.repairAgreesWithSquitters(surface, reports: SquitterReports(), at: 11))
        // A velocity before any was heard: nothing to hold against.
        let velocity = ExtendedSquitterEncoder.groundVelocity(
            icao: Self.named, groundSpeedKt: 450, trackDeg: 90,
            verticalRateFpm: 0, geoMinusBaroFt: nil)
        #expect(AcceptancePolicy.repairAgreesWithSquitters(velocity, reports: reports, at: 11))
    }

    /// A three-bit repair of a velocity squitter must be one the aircraft could send after its
    /// last: the same subtype, and speed, track, vertical rate and height offset within what
    /// it can change in the time between (`VelocityReport`).
    @Test func aThreeBitRepairOfAVelocityMustFollowTheLast() {
        var reports = Self.reports()
        func ground(_ speed: Double, _ track: Double, rate: Int = 1_024, offset: Int? = 175) -> ModeSBits {
            ExtendedSquitterEncoder.groundVelocity(
                icao: Self.named, groundSpeedKt: speed, trackDeg: track,
                verticalRateFpm: rate, geoMinusBaroFt: offset)
        }
        reports.record(ground(330, 290), address: Self.named, at: 20)
        #expect(reports.velocity(of: Self.named, at: 21)?.time == 20)
        func agrees(_ bits: ModeSBits, at time: Double) -> Bool {
            AcceptancePolicy.repairAgreesWithSquitters(bits, reports: reports, at: time)
        }
        #expect(agrees(ground(330, 290), at: 20.5))
        #expect(agrees(ground(335, 291, rate: 1_536), at: 20.5))
        // Another subtype: airspeed where the aircraft sent ground speed.
        #expect(
            !agrees(
                ExtendedSquitterEncoder.airspeedVelocity(
                    icao: Self.named, airspeedKt: 29, trueAirspeed: false,
                    headingDeg: 110, verticalRateFpm: 1_024,
                    geoMinusBaroFt: 175), at: 20.5))
        // 40 kt in half a second (16 kt is a hard turn); 600 ft of height offset, or 100.
        #expect(agrees(ground(314, 291), at: 20.5))
        #expect(!agrees(ground(290, 290), at: 20.5))
        #expect(!agrees(ground(330, 290, offset: -425), at: 20.5))
        #expect(!agrees(ground(330, 290, offset: 275), at: 20.5))
        // A turn, a climb, a change of offset: each allowed more the longer since the last.
        #expect(!agrees(ground(330, 330), at: 20.5))
        #expect(agrees(ground(330, 330), at: 30))
        #expect(!agrees(ground(330, 290, rate: 4_096), at: 20.5))
        #expect(agrees(ground(330, 290, rate: 4_096), at: 24))
        #expect(agrees(ground(330, 290, offset: 275), at: 26))
        // A field the squitter leaves out is not compared; once the last is too old, or for an
        // aircraft not heard, nothing is held against.
        #expect(agrees(ground(330, 290, offset: nil), at: 20.5))
        #expect(agrees(ground(200, 90), at: 51))
        #expect(AcceptancePolicy.repairAgreesWithSquitters(ground(200, 90), reports: Self.reports(), at: 20.5))
    }

    /// The small-repair squitter agreement: a one- or two-bit repair of a squitter clear of the
    /// noise is held to what its aircraft reported, judged on the bits as the repair leaves them;
    /// near the noise, or with nothing to repair, nothing is asked.
    @Test func aSmallRepairClearOfTheNoiseMustAgreeWithTheReports() {
        let reports = Self.reports()
        func position(_ feet: Int) -> ModeSBits {
            ExtendedSquitterEncoder.airbornePosition(
                icao: Self.named, latitude: 52.3, longitude: 4.8, odd: false,
                altitudeFt: feet)
        }
        func agrees(_ bits: ModeSBits, fix: (first: Int, second: Int)?, clearOfNoise: Bool) -> Bool {
            AcceptancePolicy.smallRepairAgreesWithSquitters(
                bits, fix: fix, clearOfNoise: clearOfNoise,
                reports: reports, at: 11)
        }
        // Bits 60 and 90 turned on a squitter at 35,100 ft and at 20,000 ft: repaired, the one
        // keeps to the 35,000 ft reported, the other does not.
        var near = position(35_100)
        var far = position(20_000)
        for number in [60, 90] {
            near.flipBit(number)
            far.flipBit(number)
        }
        #expect(agrees(near, fix: (60, 90), clearOfNoise: true))
        #expect(!agrees(far, fix: (60, 90), clearOfNoise: true))
        var farOne = position(20_000)
        farOne.flipBit(70)
        #expect(!agrees(farOne, fix: (70, 0), clearOfNoise: true))
        // Near the noise, or with no repair to make, it is not asked.
        #expect(agrees(far, fix: (60, 90), clearOfNoise: false))
        #expect(agrees(position(20_000), fix: nil, clearOfNoise: true))
    }

    /// In a stream: after an aircraft's position squitter, an altitude reply naming it with its
    /// altitude is found, and one naming it with another aircraft's altitude is refused.
    @Test(arguments: [SampleRate.twoPointFourMega, .twoMega])
    func aReplyWithAnotherAircraftsAltitudeIsRefused(rate: SampleRate) {
        let position = ExtendedSquitterEncoder.airbornePosition(
            icao: Self.named, latitude: 52.3, longitude: 4.8,
            odd: false, altitudeFt: 35_000)
        let agreeing = ReplyEncoder.altitudeReply(icao: Self.named, altitudeFt: 35_100, onGround: false)
        let disagreeing = ReplyEncoder.altitudeReply(icao: Self.named, altitudeFt: 24_100, onGround: false)
        let signal = RectangularSignal(sampleRate: rate, sampleCount: 12_000, seed: 9)
        let bursts: [RectangularSignal.Burst] = [
            .init(bits: position, start: 2_000, amplitude: 40),
            .init(bits: agreeing, start: 5_000.2, amplitude: 40),
            .init(bits: disagreeing, start: 8_000.7, amplitude: 40)
        ]
        let demodulator = StreamingDemodulator(format: .cu8, sampleRate: rate)
        var frames: [ModeSBits] = []
        signal.bytes(bursts, format: .cu8).withUnsafeBytes { demodulator.process($0) { frames.append($0.bits) } }
        _ = demodulator.finish { frames.append($0.bits) }
        #expect(frames == [position, agreeing])
        #expect(demodulator.statistics.squitterMismatches >= 1)
    }
}
