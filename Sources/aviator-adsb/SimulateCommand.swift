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
    var format: SampleFormat = .cu8

    @Option(name: .long, help: ArgumentHelp("Sample rate: 2.0M or 2.4M (also 2400000 or 2.4).", valueName: "RATE"))
    var sampleRate: SampleRate = .twoPointFourMega

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
    var receiver = ReceiverArgument(point: GeoPoint(latitude: 52.0, longitude: 4.4))

    @Flag(name: .long, help: "A dense sky near an airport, where many bursts overlap.")
    var busy = false

    func validate() throws {
        do {
            try makeSettings().validate()
        } catch SimulationError.invalidSetting(let problem) {
            throw ValidationError(problem)
        }
    }

    func run() throws {
        do {
            let settings = try makeSettings()
            let started = Date()
            let simulation = try Simulation(settings: settings)
            let rateText = settings.sampleRate == 2_400_000 ? "2.4" : "2.0"
            // The plan is printed once the output file is open (at the first progress
            // report), so that an output that cannot be created is the only line.
            var announced = false
            let announce = { [out] in
                guard !announced else { return }
                announced = true
                log("simulate: \(simulation.scenario.aircraft.count) aircraft, \(simulation.transmissions.count) messages, "
                    + "\(settings.duration) s at \(rateText) MS/s \(settings.format.rawValue) -> \(out)")
            }
            let summary = try simulation.write(to: out) { fraction in
                announce()
                log("simulate: \(Int((fraction * 100).rounded()))%")
            }
            announce()
            let elapsed = Date().timeIntervalSince(started)
            log("simulate: wrote \(summary.messages) messages (\(summary.overlapped) overlapping), "
                + "\(settings.duration) s, \(summary.samples) samples, \(summary.bytes) bytes to \(out) "
                + "and its truth to \(out).truth.jsonl in \(String(format: "%.2f", elapsed)) s"
                + (summary.clipped > 0 ? "; \(summary.clipped) I/Q values clipped" : ""))
        } catch SimulationError.invalidSetting(let problem) {
            throw ValidationError(problem)
        } catch let error as SimulationError {
            throw RuntimeError(error.description)
        }
    }

    private func log(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    private func makeSettings() throws -> Simulation.Settings {
        var settings = Simulation.Settings()
        settings.format = format
        settings.sampleRate = sampleRate.hertz
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
        guard receiver.altitudeMetres == nil else {
            throw ValidationError("--receiver takes LAT,LON here: the simulated receiver is at height 0")
        }
        settings.receiver = receiver.point
        settings.busy = busy
        return settings
    }
}
