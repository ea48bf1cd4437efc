import ArgumentParser
import Foundation
import Simulator
import ModeS
import ModeSDemod

/// `aviator-adsb simulate`: write a synthetic IQ recording and its truth.
struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Write a synthetic IQ recording and its truth.",
        discussion: """
            Writes FILE (IQ samples) and FILE.truth.jsonl (one line per transmitted message and, \
            once a second, each aircraft's true state). The same seed gives the same bytes.
            SNR is the mean power of the noise-free burst over its duration divided by the \
            complex noise power; the noise is 4 LSB rms per component in cu8.
            """)

    @Option(name: .long, help: ArgumentHelp("The IQ file to write; its truth goes to FILE.truth.jsonl.", valueName: "FILE"))
    var out: String

    @Option(name: .long, help: "Sample format: cu8 (RTL-SDR native), cs16 or cf32.")
    var format: String = "cu8"

    @Option(name: .long, help: ArgumentHelp("Sample rate: 2.0M or 2.4M (also 2400000 or 2.4).", valueName: "RATE"))
    var sampleRate: String = "2.4M"

    @Option(name: .long, help: ArgumentHelp("Length of the recording in seconds.", valueName: "S"))
    var duration: Double = 10

    @Option(name: .long, help: ArgumentHelp("Number of aircraft (default 20, or 150 with --busy).", valueName: "N"))
    var aircraft: Int?

    @Option(name: .long, help: ArgumentHelp("Random seed; the same seed gives the same bytes.", valueName: "N"))
    var seed: UInt64 = 1

    @Option(name: .long, help: ArgumentHelp("Lowest SNR in dB; with --snr-max every message's SNR is drawn in that range instead of following distance.", valueName: "DB"))
    var snrMin: Double?

    @Option(name: .long, help: ArgumentHelp("Highest SNR in dB (see --snr-min).", valueName: "DB"))
    var snrMax: Double?

    @Option(name: .long, help: ArgumentHelp("Receiver position in degrees.", valueName: "LAT,LON"))
    var receiver: String = "52.0,4.4"

    @Flag(name: .long, help: "A dense sky near an airport, where many bursts overlap.")
    var busy = false

    func run() throws {
        do {
            let settings = try makeSettings()
            let started = Date()
            let simulation = try Simulation(settings: settings)
            let rateText = settings.sampleRate == 2_400_000 ? "2.4" : "2.0"
            log("simulate: \(simulation.scenario.aircraft.count) aircraft, \(simulation.transmissions.count) messages, "
                + "\(settings.duration) s at \(rateText) MS/s \(settings.format.rawValue) -> \(out)")
            let summary = try simulation.write(to: out) { fraction in
                log("simulate: \(Int((fraction * 100).rounded()))%")
            }
            let elapsed = Date().timeIntervalSince(started)
            log("simulate: wrote \(summary.messages) messages (\(summary.overlapped) overlapping), "
                + "\(settings.duration) s, \(summary.samples) samples, \(summary.bytes) bytes to \(out) "
                + "and its truth to \(out).truth.jsonl in \(String(format: "%.2f", elapsed)) s"
                + (summary.clipped > 0 ? "; \(summary.clipped) I/Q values clipped" : ""))
        } catch let error as SimulationError {
            throw ValidationError(error.description)
        }
    }

    private func log(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    private func makeSettings() throws -> Simulation.Settings {
        var settings = Simulation.Settings()
        guard let format = SampleFormat(name: format) else {
            throw ValidationError("unknown format '\(format)': use cu8, cs16 or cf32")
        }
        settings.format = format
        settings.sampleRate = try Self.parseSampleRate(sampleRate)
        guard duration.isFinite, duration > 0 else { throw ValidationError("--duration must be positive") }
        settings.duration = duration
        if let aircraft, aircraft < 0 { throw ValidationError("--aircraft must not be negative") }
        settings.aircraft = aircraft
        settings.seed = seed
        switch (snrMin, snrMax) {
        case (nil, nil): break
        case let (low?, high?):
            guard low.isFinite, high.isFinite, low <= high else {
                throw ValidationError("--snr-min must not exceed --snr-max")
            }
            settings.snrRange = low...high
        default:
            throw ValidationError("--snr-min and --snr-max go together")
        }
        let parts = receiver.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let lat = parts[0], let lon = parts[1] else {
            throw ValidationError("--receiver must be LAT,LON in degrees, e.g. 52.0,4.4")
        }
        settings.receiver = GeoPoint(latitude: lat, longitude: lon)
        settings.busy = busy
        return settings
    }

    /// 2.4M, 2400000, 2.4 (MS/s) and the same for 2.0.
    static func parseSampleRate(_ text: String) throws -> Int {
        var body = text.trimmingCharacters(in: .whitespaces).lowercased()
        var multiplier = 1.0
        if body.hasSuffix("m") {
            body.removeLast()
            multiplier = 1e6
        }
        guard let value = Double(body), value > 0 else {
            throw ValidationError("cannot read sample rate '\(text)': use 2.0M or 2.4M")
        }
        var rate = value * multiplier
        if rate < 1000 { rate *= 1e6 } // "2.4" means MS/s
        let hz = Int(rate.rounded())
        guard hz == 2_000_000 || hz == 2_400_000 else {
            throw ValidationError("sample rate must be 2.0M or 2.4M, not '\(text)'")
        }
        return hz
    }
}
