import ArgumentParser
import FoundationEssentials
import IQ
import ModeS
import ModeSDemod
import Simulator
import Support

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
            --channel real (the default) puts a receiver's impairments and the sky's \
            interference between the transponders and the samples; --channel kind leaves them \
            out, as the simulator always did. Each impairment's option overrides the mix \
            (0 switches it off); docs/demodulator.md describes them.
            """)

    @Option(
        name: .long, help: ArgumentHelp("The IQ file to write; its truth goes to FILE.truth.jsonl.", valueName: "FILE"))
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

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Lowest SNR in dB; with --snr-max every message's SNR is drawn in that range instead of following distance.",
            valueName: "DB"))
    var snrMin: Double?

    @Option(name: .long, help: ArgumentHelp("Highest SNR in dB (see --snr-min).", valueName: "DB"))
    var snrMax: Double?

    @Option(name: .long, help: ArgumentHelp("Receiver position in degrees.", valueName: "LAT,LON"))
    var receiver = ReceiverArgument(point: GeoPoint(latitude: 52.0, longitude: 4.4))

    @Flag(name: .long, help: "A dense sky near an airport, where many bursts overlap.")
    var busy = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "real: a receiver's impairments and the sky's interference (the defaults below); kind: none of them, the old channel.",
            valueName: "real|kind"))
    var channel: ChannelChoice = .real

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Share of the aircraft whose replies arrive with an echo 0.1-2 µs late, 4-25 dB weaker (real: 0.1).",
            valueName: "SHARE"))
    var multipath: Double?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The receiver filter's natural frequency as a fraction of the sample rate, 0 for none (real: 0.35).",
            valueName: "FRACTION"))
    var filterBandwidth: Double?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The receiver filter's damping: 1 no ringing, lower rings more (real: 0.6).", valueName: "ZETA"))
    var filterDamping: Double?

    @Option(name: .long, help: ArgumentHelp("The tuner's frequency error in Hz (real: 25000).", valueName: "HZ"))
    var tuningError: Double?

    @Option(
        name: .long,
        help: ArgumentHelp("The tuner's phase noise, radians rms per sample step (real: 0.004).", valueName: "RAD"))
    var phaseNoise: Double?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The converter's IQ imbalance: Q/I gain in dB and phase error in degrees (real: 0.4,2.5).",
            valueName: "DB,DEG"))
    var iqImbalance: NumberPair?

    @Option(
        name: .long,
        help: ArgumentHelp("The converter's DC offset of I and Q in LSB (real: 1.2,-0.8).", valueName: "I,Q"))
    var dcOffset: NumberPair?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Gain steps within ±DB of nominal, every S seconds on average; 0 for none (real: 1.5,4).", valueName: "DB,S"
        ))
    var gainSteps: NumberPair?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The converter's rails in LSB from zero, 8-127.5 (real: 127.5, where cu8 clips).", valueName: "LSB"))
    var rail: Double?

    @Option(name: .long, help: ArgumentHelp("Mode A/C replies per aircraft per second (real: 5).", valueName: "RATE"))
    var modeAc: Double?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Ground stations whose all-call replies carry their interrogator codes, and each one's replies per aircraft per second (real: 6,0.3).",
            valueName: "N,RATE"))
    var groundStations: NumberPair?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Share of the aircraft near a radar sending trains of Comm-B replies 136.5 µs apart, and trains per second (real: 0.05,1).",
            valueName: "SHARE,RATE"))
    var trains: NumberPair?

    @Option(
        name: .long,
        help: ArgumentHelp("The strongest distance-derived SNR in dB (real: 30; kind: 25).", valueName: "DB"))
    var strongest: Double?

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
                log(
                    "simulate: \(simulation.scenario.aircraft.count) aircraft, \(simulation.transmissions.count) messages, "
                        + "\(settings.duration) s at \(rateText) MS/s \(settings.format.rawValue) -> \(out)")
            }
            let summary = try simulation.write(to: out) { fraction in
                announce()
                log("simulate: \(Int((fraction * 100).rounded()))%")
            }
            announce()
            let elapsed = Date().timeIntervalSince(started)
            log(
                "simulate: wrote \(summary.messages) messages (\(summary.overlapped) overlapping), "
                    + "\(settings.duration) s, \(summary.samples) samples, \(summary.bytes) bytes to \(out) "
                    + "and its truth to \(out).truth.jsonl in \(DecimalText.fixed(elapsed, places: 2)) s"
                    + (summary.clipped > 0 ? "; \(summary.clipped) I/Q values clipped" : ""))
        } catch SimulationError.invalidSetting(let problem) {
            throw ValidationError(problem)
        } catch let error as SimulationError {
            throw RuntimeError(error.description)
        }
    }

    private func log(_ line: String) {
        standardError(line)
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
        case (let low?, let high?):
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
        settings.channel = try makeChannel()
        return settings
    }

    /// The channel: the chosen mix, with every impairment option given applied on top. Only
    /// 0 turns an impairment off; any other value is kept, so that one out of its range (a
    /// negative share, NaN) is refused by the settings' validation rather than read as off.
    private func makeChannel() throws -> Channel {
        var c = channel == .real ? Channel.realistic : Channel.kind
        if let multipath { c.multipath = multipath == 0 ? nil : Multipath(fraction: multipath) }
        if let filterBandwidth {
            c.filter = filterBandwidth == 0 ? nil : (filterBandwidth, filterDamping ?? c.filter?.damping ?? 0.6)
        } else if let filterDamping, let filter = c.filter {
            c.filter = (filter.bandwidth, filterDamping)
        }
        if let tuningError { c.tuningErrorHz = tuningError }
        if let phaseNoise { c.phaseNoise = phaseNoise }
        if let iqImbalance {
            c.iqImbalance =
                iqImbalance.isZero ? nil : IQImbalance(gainDb: iqImbalance.first, phaseDeg: iqImbalance.second)
        }
        if let dcOffset { c.dcOffset = dcOffset.isZero ? nil : DCOffset(i: dcOffset.first, q: dcOffset.second) }
        if let gainSteps {
            c.gainSteps = gainSteps.first == 0 ? nil : (gainSteps.first, gainSteps.second)
        }
        if let rail { c.rail = rail }
        if let modeAc { c.modeAC = modeAc == 0 ? nil : ModeACReplies(ratePerAircraft: modeAc) }
        if let groundStations {
            let count = groundStations.first
            guard count.isFinite, count.rounded() == count, abs(count) <= 1_000 else {
                throw ValidationError("--ground-stations: the number of stations must be a whole number, got \(count)")
            }
            c.stations = count == 0 ? nil : GroundStations(count: Int(count), repliesPerSecond: groundStations.second)
        }
        if let trains {
            c.trains =
                trains.first == 0 ? nil : InterrogationTrains(fraction: trains.first, trainsPerSecond: trains.second)
        }
        if let strongest { c.strongestSnrDb = strongest }
        return c
    }
}

/// `--channel`: which mix of impairments a simulated recording goes through.
enum ChannelChoice: String, ExpressibleByArgument, CaseIterable {
    /// A receiver's impairments and the sky's interference.
    case real
    /// None of them: the simulator's old channel.
    case kind
}

/// Two numbers separated by a comma, such as `0.4,2.5`.
struct NumberPair: ExpressibleByArgument {
    /// The first number.
    var first: Double
    /// The second number.
    var second: Double

    /// Parses `A,B` with two finite numbers; anything else is refused.
    init?(argument: String) {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let a = Double(parts[0]), let b = Double(parts[1]), a.isFinite, b.isFinite else {
            return nil
        }
        first = a
        second = b
    }

    /// Whether both are zero (the impairment switched off).
    var isZero: Bool { first == 0 && second == 0 }
}
