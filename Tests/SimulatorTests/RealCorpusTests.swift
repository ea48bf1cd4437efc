import Foundation
import ModeS
import TestSupport
import Testing

@testable import Simulator

/// Re-encodes the 2000 real DF17 messages of ../shared/messages/sample_data_adsb.csv from their
/// contents, decoded here by hand, and expects the very same bits back.
@Suite(.requires(.shared("messages/sample_data_adsb.csv"))) struct RealCorpusTests {
    static func messages() -> [ModeSBits]? {
        guard let text = SharedData.text("messages/sample_data_adsb.csv") else { return nil }
        return text.split(separator: "\n").compactMap { line in
            let columns = line.split(separator: ",")
            guard columns.count >= 2 else { return nil }
            return ModeSBits(hex: columns[1].trimmingCharacters(in: CharacterSet(charactersIn: "\" \r")))
        }
    }

    static let charset = Array("#ABCDEFGHIJKLMNOPQRSTUVWXYZ##### ###############0123456789######")

    @Test func identificationPositionAndVelocityReencodeExactly() throws {
        guard let messages = Self.messages() else { return }
        #expect(messages.count == 2000)
        let receiver = GeoPoint(latitude: 52.0, longitude: 4.4)
        var counts = [String: Int]()
        for bits in messages where bits.downlinkFormat == 17 {
            let icao = UInt32(bits.field(9, 32))
            let capability = bits.field(6, 8)
            let typeCode = bits.field(33, 37)
            switch typeCode {
            case 1...4:
                let callsign = String((0..<8).map { Self.charset[Int(bits.field(41 + 6 * $0, 46 + 6 * $0))] })
                let category =
                    String(UnicodeScalar(UInt8(ascii: "A") + UInt8(4 - typeCode))) + String(bits.field(38, 40))
                let rebuilt = ExtendedSquitterEncoder.identification(
                    icao: icao, callsign: callsign.replacingOccurrences(of: "#", with: " "),
                    category: category, capability: capability)
                #expect(rebuilt == bits, "\(bits.hex)")
                counts["ident", default: 0] += 1
            case 9...18 where bits.bit(48) == 1 && bits.bit(53) == 0:
                // 25 ft altitude code; position from the CPR fields, placed near the receiver.
                let alt = bits.field(41, 52)
                let n = (alt >> 5) << 4 | (alt & 0xF)
                let odd = bits.bit(54) == 1
                let position = CPREncoderTests.decodeLocal(
                    (bits.field(55, 71), bits.field(72, 88)), odd: odd,
                    surface: false, reference: receiver)
                let rebuilt = ExtendedSquitterEncoder.airbornePosition(
                    icao: icao, latitude: position.latitude, longitude: position.longitude, odd: odd,
                    altitudeFt: Int(n) * 25 - 1000, typeCode: typeCode, surveillanceStatus: bits.field(38, 39),
                    singleAntenna: bits.bit(40) == 1)
                #expect(rebuilt == bits, "\(bits.hex)")
                counts["position", default: 0] += 1
            case 19 where bits.field(38, 40) == 1:
                // Ground velocity: components back to speed and track, then encoded again.
                let west = bits.bit(46) == 1
                let south = bits.bit(57) == 1
                let ew = Double(bits.field(47, 56)) - 1
                let ns = Double(bits.field(58, 67)) - 1
                guard ew >= 0, ns >= 0, bits.field(70, 78) != 0 else { continue }
                let east = west ? -ew : ew
                let north = south ? -ns : ns
                let speed = (east * east + north * north).squareRoot()
                let track = atan2(east, north) * 180 / Double.pi
                let rate = (Int(bits.field(70, 78)) - 1) * 64 * (bits.bit(69) == 1 ? -1 : 1)
                let difference =
                    bits.field(82, 88) == 0
                    ? nil
                    : (Int(bits.field(82, 88)) - 1) * 25 * (bits.bit(81) == 1 ? -1 : 1)
                let rebuilt = ExtendedSquitterEncoder.groundVelocity(
                    icao: icao, groundSpeedKt: speed, trackDeg: track, verticalRateFpm: rate,
                    geoMinusBaroFt: difference, verticalRateFromGNSS: bits.bit(68) == 0)
                // ME bits 14-56; the header bits (intent change, IFR, NUCr) are not modelled, and
                // a sign on a zero value ("-0", which some transponders send) is not reproduced.
                var original = bits
                if ew == 0 { original.setBit(46, false) }
                if ns == 0 { original.setBit(57, false) }
                if rate == 0 { original.setBit(69, false) }
                if difference == 0 { original.setBit(81, false) }
                #expect(rebuilt.field(46, 88) == original.field(46, 88), "\(bits.hex)")
                counts["velocity", default: 0] += 1
            default:
                break
            }
        }
        #expect(counts["ident", default: 0] > 10)
        #expect(counts["position", default: 0] > 500)
        #expect(counts["velocity", default: 0] > 300)
    }
}
