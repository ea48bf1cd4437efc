import Foundation
import Testing

extension EndToEnd {
    /// How the commands fail. An argument the command cannot take is a usage error: status
    /// 64, the problem and a pointer to `--help`. Anything else (a file that is not there, an
    /// output that cannot be written) is one `Error:` line and status 1, without usage.
    @Suite struct CommandErrorTests {
        @Test(arguments: [
            (
                ["decode", "/nonexistent/messages.txt"],
                "cannot open /nonexistent/messages.txt: No such file or directory"
            ),
            (
                ["demod", "/nonexistent/recording.cu8"],
                "cannot open /nonexistent/recording.cu8: No such file or directory"
            ),
            (
                ["simulate", "--out", "/nonexistent/sky.cu8", "--duration", "0.01"],
                "cannot write /nonexistent/sky.cu8: No such file or directory"
            )
        ])
        func aMissingFileIsOneLineAndStatusOne(arguments: [String], message: String) throws {
            let result = try BinaryRunner.run(arguments, input: Data())
            #expect(result.status == 1, "\(arguments): \(result.stderr)")
            #expect(result.stderr == "Error: \(message)\n", "\(arguments)")
            #expect(result.stdout.isEmpty, "\(arguments)")
        }

        @Test(arguments: [
            ["run", "--stats-interval", "nan"], ["run", "--stats-interval", "inf"],
            ["run", "--stats-interval", "1e300"],
            ["run", "--stats-interval", "1e-12"], ["run", "--retry-interval", "nan"],
            ["run", "--retry-interval", "1e300"],
            ["decode", "--max-range-km", "nan"], ["decode", "--max-range-km=-5"],
            ["run", "--max-clients", "0"], ["run", "--max-clients", "100000"],
            ["run", "--range-km", "5e-324"], ["radar", "--range-km", "0.05"],
            ["run", "--gain", "inf"], ["run", "--gain", "nan"], ["run", "--gain", "1e12"],
            ["run", "--ppm", "3000000000"], ["run", "--ppm=-1001"]
        ])
        func aNumberOutsideItsBoundsIsAUsageError(arguments: [String]) throws {
            let result = try BinaryRunner.run(arguments, input: Data())
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("must be"), "\(arguments): \(result.stderr)")
        }

        @Test(arguments: [
            ["run", "--sample-rate", "3.2M"], ["run", "--replay", "sky.cu8", "--format", "u12"],
            ["demod", "sky.cu8", "--sample-rate", "3.2M"], ["demod", "sky.cu8", "--format", "u12"],
            ["bench", "--sample-rate", "3.2M"], ["bench", "--format", "u12"],
            ["simulate", "--out", "/nonexistent/sky.cu8", "--sample-rate", "3.2M"],
            ["simulate", "--out", "/nonexistent/sky.cu8", "--format", "u12"]
        ])
        func aBadSampleRateOrFormatIsAUsageError(arguments: [String]) throws {
            let result = try BinaryRunner.run(arguments)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            let value = arguments.last!
            #expect(
                result.stderr.hasPrefix(
                    "Error: The value '\(value)' is invalid for '\(arguments[arguments.count - 2])"),
                "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("Usage: aviator-adsb \(arguments[0])"), "\(arguments): \(result.stderr)")
        }

        @Test(arguments: [
            (["--ground-stations", "100,0.3"], "ground stations must number 0...63"),
            (["--ground-stations", "2.5,0.3"], "the number of stations must be a whole number, got 2.5"),
            (["--multipath", "nan"], "multipath share must be within 0...1"),
            (["--multipath=-3"], "multipath share must be within 0...1"),
            (["--mode-ac=-1"], "Mode A/C rate must be within 0...1000"),
            (["--trains=-1,1"], "interrogation trains: share within 0...1"),
            (["--filter-bandwidth", "nan"], "filter bandwidth must be within 0.01...0.49")
        ])
        func anImpairmentOutOfItsRangeIsAUsageErrorNotSwitchedOff(options: [String], message: String) throws {
            let result = try BinaryRunner.run(["simulate", "--out", "/nonexistent/sky.cu8"] + options, input: Data())
            #expect(result.status == 64, "\(options): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(options): \(result.stderr)")
        }

        @Test func aDirectoryForTheBrokersCertificatesIsAUsageError() throws {
            let result = try BinaryRunner.run(
                ["run", "--mqtt", "mqtts://127.0.0.1:8883", "--mqtt-ca-file", "/tmp"], input: Data())
            #expect(result.status == 64, "\(result.stderr)")
            #expect(result.stderr.contains("--mqtt-ca-file: /tmp is a directory"), "\(result.stderr)")
        }

        @Test(arguments: [
            (["--format", "cs16"], "--throttle, --speed, --loop and --format apply to --replay"),
            (["--replay", "sky.cu8", "--device", "1"], "--device applies to a local dongle"),
            (["--net-only", "--beast-in", "127.0.0.1:30005", "--device", "1"], "--device applies to a local dongle"),
            (["--gain", "40", "--gain-max", "45"], "--gain-min and --gain-max apply to --gain adaptive"),
            (["--name", "attic"], "--name and --mqtt-ca-file apply to --mqtt or --mqtt-in"),
            (
                ["--mqtt", "mqtt://127.0.0.1", "--mqtt-ca-file", "/etc/hostname"],
                "--mqtt-ca-file applies to an mqtts:// broker"
            ),
            (["--bind", "0.0.0.0"], "--bind applies to the TCP outputs"),
            (["--bind", "0.0.0.0", "--json-dir", "/tmp"], "--bind applies to the TCP outputs"),
            (["--mqtt-topic", "aviator/+/beast"], "--mqtt-topic applies to --mqtt-in"),
            (["--speed", "4"], "--throttle, --speed, --loop and --format apply to --replay"),
            (["--replay", "sky.cu8", "--speed", "100"], "--speed must be between 0.01 and 64, got 100.0"),
            (["--replay", "sky.cu8", "--speed", "nan"], "--speed must be between 0.01 and 64"),
            (["--replay", "sky.cu8", "--speed", "2", "--throttle"], "give one of --throttle and --speed"),
            (["--demod-budget", "0"], "--demod-budget must be between 1 and 400 (% of one core), got 0.0"),
            (["--demod-level", "5"], "--demod-level must be 0 (plain) to 4 (every technique), got 5")
        ])
        func anOptionThatWouldBeIgnoredIsAUsageError(options: [String], message: String) throws {
            let result = try BinaryRunner.run(["run"] + options, input: Data())
            #expect(result.status == 64, "\(options): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(options): \(result.stderr)")
        }

        @Test func loopingStandardInputIsAUsageError() throws {
            let result = try BinaryRunner.run(["run", "--replay", "-", "--loop"], input: Data())
            #expect(result.status == 64, "\(result.stderr)")
            #expect(
                result.stderr.contains("--loop cannot start standard input again: --replay - plays once"),
                "\(result.stderr)")
        }

        @Test(arguments: [
            ["run", "--receiver", "95,4"], ["run", "--receiver", "52,4,high"], ["run", "--receiver", "52,4,1e308"],
            ["run", "--receiver", "52,4,-5000"],
            ["decode", "--receiver", "95,4"], ["decode", "--receiver", "north"],
            ["simulate", "--out", "/nonexistent/sky.cu8", "--receiver", "north"],
            ["simulate", "--out", "/nonexistent/sky.cu8", "--receiver", "52,4,100"]
        ])
        func aBadReceiverIsAUsageError(arguments: [String]) throws {
            let result = try BinaryRunner.run(arguments, input: Data())
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.hasPrefix("Error: "), "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("--receiver"), "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("Usage: aviator-adsb \(arguments[0])"), "\(arguments): \(result.stderr)")
        }

        @Test(arguments: [
            (["bench", "--repeat", "0"], "Error: --repeat must be at least 1"),
            (["bench", "--seconds", "0"], "Error: --seconds must be in (0, 600]"),
            (["bench", "--format", "cs16"], "Error: generated data is cu8 only"),
            (["radar", "--once", "--heading", "400"], "Error: --heading must be between 0 and 360, got 400.0"),
            (["radar", "--once", "--size", "3x3"], "Error: --size must be COLUMNSxROWS with at least 20x10, got 3x3")
        ])
        func aBadOptionValueIsAUsageError(arguments: [String], message: String) throws {
            let result = try BinaryRunner.run(arguments)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(
                result.stderr.split(separator: "\n").first.map(String.init) == message, "\(arguments): \(result.stderr)"
            )
            #expect(result.stderr.contains("Usage: aviator-adsb \(arguments[0])"), "\(arguments): \(result.stderr)")
        }
    }
}
