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
    }
}
