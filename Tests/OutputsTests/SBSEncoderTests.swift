import Foundation
import ModeS
import TestSupport
import Testing
import Tracking

@testable import Outputs

@Suite struct SBSEncoderTests {
    /// One SBS line with what produced it.
    struct Emitted {
        var message: Message
        var aircraft: AircraftState?
        var fields: [String]
        var line: String
    }

    /// Field indexes (0-based) each transmission type may fill, beyond the 10 header fields.
    static let allowedFields: [Int: Set<Int>] = [
        1: [10],
        2: [11, 12, 13, 14, 15, 21],
        3: [11, 14, 15, 18, 19, 20, 21],
        4: [12, 13, 16],
        5: [11, 18, 20, 21],
        6: [17, 18, 19, 20, 21],
        7: [11, 21],
        8: [21]
    ]

    /// Runs `frames` through a tracker and collects the SBS line of each.
    static func emit(_ frames: [(frame: Frame, time: Double)], receiver: GeoPoint?) -> [Emitted] {
        let tracker = WiredTracker(receiver: receiver)
        let encoder = SBSEncoder()
        let collected = Collected()
        tracker.addFrameListener { update in
            let message = update.message
            let aircraft: AircraftState? = update.aircraft
            let time = 1_700_000_000.25
            guard let line = encoder.line(for: message, aircraft: aircraft, receivedAt: time) else { return }
            // "\r\n" is one Character in Swift: drop it as one.
            let body = line.hasSuffix("\r\n") ? String(line.dropLast()) : line
            collected.append(
                Emitted(
                    message: message, aircraft: aircraft,
                    fields: body.split(separator: ",", omittingEmptySubsequences: false).map(String.init),
                    line: line))
        }
        for (frame, time) in frames { tracker.accept(frame, at: 1_700_000_000 + time) }
        return collected.items
    }

    final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var storage: [Emitted] = []
        func append(_ item: Emitted) { lock.withLock { storage.append(item) } }
        var items: [Emitted] { lock.withLock { storage } }
    }

    /// The busy-airport sample plus hand-built air-to-air replies (the simulator sends none).
    static func everyType() throws -> [Emitted] {
        var frames = try OutputTestFrames.busyAirport()
        let known = frames.first { $0.frame.downlinkFormat == 17 }!.frame.address
        let end = frames.last!.time
        frames.append((OutputTestFrames.airAir(df: 0, icao: known, feet: 36000), end + 0.01))
        frames.append((OutputTestFrames.airAir(df: 16, icao: known, feet: 36025, vs: 0), end + 0.02))
        frames.append((OutputTestFrames.airAir(df: 0, icao: known, feet: 125, vs: 1), end + 0.03))
        return emit(frames, receiver: GeoPoint(latitude: 52.3, longitude: 4.75))
    }

    @Test func everyLineHasTheBaseStationLayout() throws {
        let emitted = try Self.everyType()
        #expect(emitted.count > 500)
        let date = try Regex(#"^\d{4}/\d{2}/\d{2}$"#)
        let time = try Regex(#"^\d{2}:\d{2}:\d{2}\.\d{3}$"#)
        for item in emitted {
            #expect(item.line.hasSuffix("\r\n"))
            #expect(item.line.utf8.dropLast(2).allSatisfy { $0 != 13 && $0 != 10 })
            #expect(Array(item.line.utf8.suffix(2)) == [13, 10])
            try #require(item.fields.count == 22, "\(item.line)")
            let type = try #require(Int(item.fields[1]))
            #expect(item.fields[0] == "MSG")
            #expect(type == SBSEncoder.transmissionType(for: item.message))
            #expect(item.fields[2] == "1" && item.fields[3] == "1" && item.fields[5] == "1")
            #expect(item.fields[4] == item.message.icaoHex.uppercased())
            #expect(item.fields[6].wholeMatch(of: date) != nil && item.fields[8] == item.fields[6])
            #expect(item.fields[7].wholeMatch(of: time) != nil && item.fields[9] == item.fields[7])
            let allowed = try #require(Self.allowedFields[type])
            for index in 10..<22 where !allowed.contains(index) {
                #expect(item.fields[index].isEmpty, "MSG,\(type) field \(index + 1) should be empty: \(item.line)")
            }
            for index in [18, 19, 20, 21] where !item.fields[index].isEmpty {
                #expect(item.fields[index] == "-1" || item.fields[index] == "0", "flag \(index + 1): \(item.line)")
            }
        }
    }

    @Test func fieldsCarryTheDecodedValues() throws {
        let emitted = try Self.everyType()
        var seenTypes = Set<Int>()
        var positioned = Set<Int>()
        for item in emitted {
            let message = item.message
            let fields = item.fields
            let type = try #require(Int(fields[1]))
            seenTypes.insert(type)
            switch type {
            case 1:
                #expect(fields[10] == message.callsign ?? "")
                #expect(!fields[10].isEmpty)
            case 2, 3:
                let altitude = type == 3 ? (message.altitudeBaroFt ?? message.altitudeGeoFt) : message.altitudeBaroFt
                #expect(fields[11] == altitude.map(String.init) ?? "")
                #expect(fields[21] == (type == 2 ? "-1" : "0"))
                if !fields[14].isEmpty {
                    positioned.insert(type)
                    let position = try #require(item.aircraft?.position)
                    #expect(abs(try #require(Double(fields[14])) - position.latitude) < 1e-5)
                    #expect(abs(try #require(Double(fields[15])) - position.longitude) < 1e-5)
                    #expect(item.aircraft?.positionTime == item.aircraft?.lastSeen)
                }
                if type == 2, let speed = message.groundSpeedKt {
                    #expect(fields[12] == String(Int(speed.rounded())))
                }
            case 4:
                if let speed = message.groundSpeedKt { #expect(fields[12] == String(Int(speed.rounded()))) }
                if let track = message.trackDeg {
                    let degrees = try #require(Int(fields[13]))
                    #expect((0..<360).contains(degrees))
                    #expect(
                        abs(Double(degrees) - track).truncatingRemainder(dividingBy: 360) <= 0.5
                            || abs(Double(degrees) - track) >= 359.5)
                }
                #expect(fields[16] == message.verticalRateFpm.map(String.init) ?? "")
            case 5, 7:
                #expect(fields[11] == String(try #require(message.altitudeBaroFt)))
                #expect(fields[21] == (message.onGround == true ? "-1" : "0"))
            case 6:
                let squawk = try #require(message.squawk)
                #expect(fields[17] == squawk)
                #expect(fields[19] == (["7500", "7600", "7700"].contains(squawk) ? "-1" : "0"))
                #expect(fields[18] == (message.alert == true ? "-1" : "0"))
                #expect(fields[20] == (message.spi == true ? "-1" : "0"))
            default:
                #expect(type == 8)
                #expect(message.df == 11)
            }
        }
        #expect(seenTypes == Set(1...8))
        #expect(positioned == [2, 3], "surface and airborne positions resolve in the sample")
    }

    @Test func publishedExamplesDecodeToTheirKnownValues() throws {
        // Identification of KLM1023 and an airborne velocity (159 kt, 182.88°, −832 ft/min):
        // the worked examples of the ADS-B literature.
        let lines = Self.emit(
            [
                (OutputTestFrames.extendedSquitter("8D4840D6202CC371C32CE0576098"), 0),
                (OutputTestFrames.extendedSquitter("8D485020994409940838175B284F"), 0.1)
            ],
            receiver: nil)
        try #require(lines.count == 2)
        #expect(lines[0].fields[1] == "1" && lines[0].fields[4] == "4840D6" && lines[0].fields[10] == "KLM1023")
        #expect(lines[1].fields[1] == "4" && lines[1].fields[4] == "485020")
        #expect(lines[1].fields[12] == "159" && lines[1].fields[13] == "183" && lines[1].fields[16] == "-832")
    }

    @Test func flightStatusSetsTheFlags() throws {
        let icao: UInt32 = 0x484175
        // Flight status 0–5: airborne/ground, alert, SPI, as the Mode S spec tables define it.
        let expectations: [(fs: UInt64, alert: String, spi: String, ground: String)] = [
            (0, "0", "0", "0"), (1, "0", "0", "-1"), (2, "-1", "0", "0"),
            (3, "-1", "0", "-1"), (4, "-1", "-1", ""), (5, "0", "-1", "")
        ]
        var frames: [(Frame, Double)] = [(OutputTestFrames.allCall(icao: icao), 0)]
        for (index, expectation) in expectations.enumerated() {
            frames.append(
                (OutputTestFrames.altitudeReply(icao: icao, feet: 1000, fs: expectation.fs), Double(index) + 0.1))
            frames.append(
                (
                    OutputTestFrames.identityReply(df: 21, icao: icao, squawk: "7600", fs: expectation.fs),
                    Double(index) + 0.2
                ))
        }
        let lines = Self.emit(frames, receiver: nil)
        try #require(lines.count == 1 + 2 * expectations.count)
        for (index, expectation) in expectations.enumerated() {
            let altitude = lines[1 + 2 * index].fields
            let identity = lines[2 + 2 * index].fields
            #expect(altitude[1] == "5" && identity[1] == "6")
            #expect(altitude[11] == "1000")
            #expect(identity[17] == "7600" && identity[19] == "-1")
            for fields in [altitude, identity] {
                #expect(fields[18] == expectation.alert, "FS \(expectation.fs) alert")
                #expect(fields[20] == expectation.spi, "FS \(expectation.fs) SPI")
                #expect(fields[21] == expectation.ground, "FS \(expectation.fs) ground")
            }
        }
    }

    @Test func messagesWithoutABaseStationTypeHaveNoLine() {
        var status = Message(df: 17, icao: 0x4840D6, crcOK: true)
        for typeCode in [0, 23, 28, 29, 31] {
            status.typeCode = typeCode
            #expect(SBSEncoder().line(for: status, aircraft: nil, receivedAt: 0) == nil, "TC \(typeCode)")
        }
        #expect(SBSEncoder().line(for: Message(df: 24, icao: 1, crcOK: true), aircraft: nil, receivedAt: 0) == nil)
        var failed = Message(df: 11, icao: 1, crcOK: false)
        failed.capability = 5
        #expect(SBSEncoder().line(for: failed, aircraft: nil, receivedAt: 0) == nil)
    }

    @Test func datesAndTimesMatchTheCalendar() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy/MM/dd HH:mm:ss.SSS"
        var generator = SystemRandomNumberGenerator()
        // Whole milliseconds: 1970, 29 Feb 2000, the last of 2099, 1969, then random ones.
        var milliseconds: [Int64] = [0, 951_782_400_000, 4_102_444_799_999, -86_400_000]
        for _ in 0..<500 { milliseconds.append(Int64.random(in: 0..<4_102_444_800_000, using: &generator)) }
        for millisecond in milliseconds {
            // A little past the millisecond, so neither side's rounding can move it.
            let time = Double(millisecond) / 1000 + 0.0002
            let (date, clock) = SBSEncoder.dateAndTime(time)
            let expected = formatter.string(from: Date(timeIntervalSince1970: time))
            #expect("\(date) \(clock)" == expected, "\(time)")
        }
        let shifted = SBSEncoder(utcOffsetSeconds: 3600).line(for: Self.allCallMessage, aircraft: nil, receivedAt: 0)
        #expect(shifted?.contains(",1970/01/01,01:00:00.000,") == true)
    }

    static var allCallMessage: Message {
        MessageDecoder().decode(OutputTestFrames.allCall(icao: 0x4840D6))
    }
}
