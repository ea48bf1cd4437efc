import Foundation
import IQ
import TestSupport
import Testing

@testable import ModeS
@testable import ModeSDemod

/// The real recordings in ../shared/iq: every frame the established decoders found must be
/// found, and every frame emitted must pass its parity check.
@Suite(.computeBound, .requires(.shared("iq"))) struct RealRecordingTests {
    static let recordings: [(name: String, format: SampleFormat, rate: SampleRate)] = [
        ("rsadsb_1641427457780.sc16", .cs16, .twoPointFourMega),
        ("rsadsb_1641428106243.sc16", .cs16, .twoPointFourMega),
        ("rsadsb_1641428165033.sc16", .cs16, .twoPointFourMega),
        ("adsbread_x1.cu8", .cu8, .twoMega),
        ("adsbread_x5.cu8", .cu8, .twoMega),
        ("adsbread_rxa6982.cu8", .cu8, .twoMega)
    ]

    @Test(arguments: recordings.map(\.name))
    func findsEveryFrameThePeersFind(name: String) throws {
        let recording = try #require(Self.recordings.first { $0.name == name })
        guard let url = SharedData.file("iq/\(name)"),
            let peers = try SharedData.lines("iq/\(name.split(separator: ".")[0]).peers.hex")
        else { return }
        let bytes = [UInt8](try Data(contentsOf: url))
        let (frames, leftover, _) = demodulate(bytes, format: recording.format, rate: recording.rate)
        #expect(leftover == 0)
        // As a multiset: a frame the peers saw twice must be found twice.
        var found = [String: Int]()
        for frame in frames { found[frame.bits.hex, default: 0] += 1 }
        for hex in peers where !hex.isEmpty {
            let key = hex.uppercased()
            #expect((found[key] ?? 0) > 0, "missing \(hex)")
            found[key, default: 0] -= 1
        }
        for frame in frames {
            let syndrome = CRC.syndrome(of: frame.bits)
            switch frame.downlinkFormat {
            case 17, 18: #expect(syndrome == 0, "\(frame.bits.hex)")
            case 11: #expect(syndrome & 0xFFFF80 == 0, "\(frame.bits.hex)")
            default: #expect(syndrome == frame.address, "\(frame.bits.hex)")
            }
        }
    }

    @Test func realRecordingIsBlockSizeIndependent() throws {
        guard let url = SharedData.file("iq/adsbread_x1.cu8") else { return }
        let bytes = [UInt8](try Data(contentsOf: url))
        let whole = demodulate(bytes, format: .cu8, rate: .twoMega).frames
        let pieces = demodulate(bytes, format: .cu8, rate: .twoMega, blockSizes: [1, 4097, 65_535, 3, 262_144, 999])
            .frames
        #expect(!whole.isEmpty)
        #expect(pieces == whole)
    }
}
