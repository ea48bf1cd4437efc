import Foundation
import Testing

extension EndToEnd {
    @Suite struct DecodeCommandTests {
        func objects(_ stdout: String) throws -> [[String: Any]] {
            try stdout.split(separator: "\n").map {
                try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
            }
        }

        @Test func pairsPositionsAcrossTheStreamAndReportsBadLines() throws {
            let input = """
                *8D40621D58C386435CC412692AD6;
                not a message
                *8D40621D58C382D690C8AC2863A7;

                *8D4840D6202CC371C32CE0576098;
                *8D4840D6202CC371C32CE05760;
                """
            let result = try BinaryRunner.run(["decode", "-"], input: Data(input.utf8))
            #expect(result.status == 0)
            let lines = try objects(result.stdout)
            #expect(lines.count == 3)
            #expect(lines[0]["lat"] == nil)
            let latitude = try #require(lines[1]["lat"] as? Double)
            #expect(abs(latitude - 52.257202) < 1e-5)
            #expect(lines[2]["callsign"] as? String == "KLM1023")
            #expect(lines[2]["icao"] as? String == "4840d6")
            #expect(lines[2]["crc_ok"] as? Bool == true)
            #expect(result.stderr.contains("line 2: not hexadecimal"))
            #expect(result.stderr.contains("line 4: empty line"))
            #expect(result.stderr.contains("line 6: 26 hex digits"))
        }

        @Test func damagedMessagesAreRepairedOrFlagged() throws {
            // One flipped bit in the callsign message is repaired; a burst of errors is reported.
            let input = "*8D4840D6202CC371C32CE0576099;\n*8D4840D6202CC371C32CE0FFFFFF;\n"
            let result = try BinaryRunner.run(["decode"], input: Data(input.utf8))
            let lines = try objects(result.stdout)
            #expect(lines.count == 2)
            #expect(lines[0]["corrected_bits"] as? Int == 1)
            #expect(lines[0]["callsign"] as? String == "KLM1023")
            #expect(lines[1]["crc_ok"] as? Bool == false)
            #expect(lines[1]["callsign"] == nil)
        }

        @Test func strictModeNeedsAConfirmedAddress() throws {
            let reply = "*20001718029FCD;\n"
            let trusting = try BinaryRunner.run(["decode"], input: Data(reply.utf8))
            #expect(try objects(trusting.stdout).first?["alt_baro_ft"] as? Int == 36_000)
            let strict = try BinaryRunner.run(["decode", "--strict"], input: Data(reply.utf8))
            #expect(try objects(strict.stdout).first?["crc_ok"] as? Bool == false)
        }

        @Test func missingFileIsOneClearError() throws {
            let result = try BinaryRunner.run(["decode", "/nonexistent/messages.txt"])
            #expect(result.status == 1)
            #expect(result.stderr == "Error: cannot open /nonexistent/messages.txt: No such file or directory\n")
        }

        @Test func badReceiverIsRejected() throws {
            let result = try BinaryRunner.run(["decode", "--receiver", "95,4"], input: Data())
            #expect(result.status == 64)
            #expect(result.stderr.contains("--receiver"))
        }

        @Test func overlongLinesAreMalformedWithOneWarning() throws {
            let commas = String(repeating: ",", count: 10_000)
            let input = "*8D4840D6202CC371C32CE0576098;\n\(commas)\n\(commas)\n*8D4840D6202CC371C32CE0576098;\n"
            let result = try BinaryRunner.run(["decode", "-"], input: Data(input.utf8))
            #expect(result.status == 0)
            #expect(try objects(result.stdout).count == 2)
            let warnings = result.stderr.split(separator: "\n").filter { $0.contains("over the 4096-byte limit") }
            #expect(
                warnings == [
                    "aviator-adsb: line 2: 10000 bytes, over the 4096-byte limit (further overlong lines are counted only)"
                ])
            #expect(result.stderr.contains("decoded 2 of 4 lines: 0 positions, 0 failed parity, 2 malformed"))
        }

        @Test func nearThePolesEveryPositionIsOnTheEarth() throws {
            // Lone frames near the south pole, decoded against a receiver there.
            let frames = (0..<400).map { index -> String in
                let lat = (index * 331) % 131_072
                let lon = (index * 7919) % 131_072
                let odd = index % 2
                // DF17, CA 5, address 0x40621D + index, type code 11: altitude 0, time bit 0.
                var payload = UInt64(11) << 51 | UInt64(odd) << 34 | UInt64(lat) << 17 | UInt64(lon)
                payload &= (1 << 56) - 1
                return Self.extendedSquitter(address: 0x40_0000 + UInt32(index % 7), payload: payload)
            }
            let input = frames.joined(separator: "\n") + "\n"
            for receiver in ["--receiver=-89.9,179.99", "--receiver=89.9,-179.99"] {
                let result = try BinaryRunner.run(
                    ["decode", receiver, "--max-range-km", "300", "-"], input: Data(input.utf8))
                #expect(result.status == 0)
                var positions = 0
                for object in try objects(result.stdout) {
                    guard let lat = object["lat"] as? Double, let lon = object["lon"] as? Double else { continue }
                    positions += 1
                    #expect(abs(lat) <= 90 && lon >= -180 && lon < 180, "\(lat), \(lon)")
                }
                #expect(positions > 0)
            }
        }

        /// An AVR line of a DF17 message with CA 5 from `address` with the 56-bit `payload`.
        static func extendedSquitter(address: UInt32, payload: UInt64) -> String {
            var bytes: [UInt8] = [0x8D, UInt8(address >> 16 & 0xFF), UInt8(address >> 8 & 0xFF), UInt8(address & 0xFF)]
            for shift in stride(from: 48, through: 0, by: -8) { bytes.append(UInt8(payload >> UInt64(shift) & 0xFF)) }
            // CRC-24 with the Mode S generator over the first 88 bits.
            var crc: UInt32 = 0
            for byte in bytes {
                crc ^= UInt32(byte) << 16
                for _ in 0..<8 { crc = crc & 0x80_0000 != 0 ? (crc << 1) ^ 0xFFF409 : crc << 1 }
                crc &= 0xFF_FFFF
            }
            bytes += [UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
            return "*" + bytes.map { String(format: "%02X", $0) }.joined() + ";"
        }
    }
}
