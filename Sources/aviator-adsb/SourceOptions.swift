import ArgumentParser
import Daemon
import IQ
import Logging
import ModeS
import ModeSDemod
import Pipeline
import ReceiverNetwork
import Receivers
import ServiceLifecycle
import Tracking

/// Where the daemon's frames come from: one local receiver (the dongle, a recording, or a
/// dongle served by rtl_tcp) plus any number of Beast feeds, connected to or pushed in, all
/// into one pipeline.
struct SourceOptions: ParsableArguments {
    @Option(help: ArgumentHelp("RTL-SDR device by index or serial number (default 0).", valueName: "index|serial"))
    var device: String?

    @Option(
        help: ArgumentHelp(
            "Tuner gain: 'adaptive' (the daemon steps the tuner's gain to keep the noise floor where distant aircraft are heard and strong ones are not cut flat; docs/sources.md), a number of dB (-10 to 60; the nearest step the tuner has), or 'auto' (the tuner's own AGC).",
            valueName: "adaptive|dB|auto"))
    var gain: String = "adaptive"

    @Option(
        name: .customLong("gain-min"),
        help: ArgumentHelp("With --gain adaptive: the lowest gain it may choose, dB.", valueName: "dB"))
    var gainMin: Double = -10

    @Option(
        name: .customLong("gain-max"),
        help: ArgumentHelp("With --gain adaptive: the highest gain it may choose, dB.", valueName: "dB"))
    var gainMax: Double = 60

    @Option(help: "Frequency correction of the dongle in parts per million (-1000 to 1000).")
    var ppm: Int = 0

    @Option(
        name: .customLong("sample-rate"),
        help: ArgumentHelp("Sample rate: 2.4M (default) or 2.0M; also 2400000 or 2.4.", valueName: "rate"))
    var sampleRate: SampleRate = .twoPointFourMega

    @Option(
        help: ArgumentHelp("Replay an IQ recording instead of a dongle; '-' reads standard input.", valueName: "file|-")
    )
    var replay: String?

    @Option(help: "Sample format of --replay: cu8, cs16 or cf32 (default: from the file extension, else cu8).")
    var format: SampleFormat?

    @Flag(
        help:
            "Replay at the recording's real-time pace instead of as fast as possible; a demodulator slower than that makes it late, never drops samples."
    )
    var throttle = false

    @Option(
        help: ArgumentHelp(
            "Replay N times faster than real time (up to 64) through the dongle's sample ring and demodulator thread: blocks the demodulator cannot keep up with are dropped, as on a computer N times slower.",
            valueName: "N"))
    var speed: Double?

    @Flag(help: "Start the replay again at its end.")
    var loop = false

    @Option(
        help: ArgumentHelp(
            "Receive from a dongle served by rtl_tcp at HOST:PORT instead of a local one.", valueName: "host:port"))
    var rtltcp: String?

    @Flag(
        inversion: .prefixedNo,
        help:
            "Subtract each frame that overlaps another signal and look for the reply beneath it: about a tenth more frames in a dense sky and three times as many near the noise (the channel fit needs the samples it keeps), for about two thirds more CPU time (docs/demodulator.md has the figures)."
    )
    var cancelOverlaps = true

    @Option(
        name: .customLong("demod-budget"),
        help: ArgumentHelp(
            "Processor time the demodulator may take, in % of one core (1-400, default 40): above it, it leaves out its costliest recovery techniques one by one, and takes them back when there is room (docs/demodulator.md, 'Keeping up'). For a dongle, rtl_tcp and a paced replay.",
            valueName: "percent"))
    var demodBudget: Double = 40

    @Option(
        name: .customLong("demod-level"),
        help: ArgumentHelp(
            "Hold the demodulator at one level instead of governing it: 0 (plain) to 4 (every technique).",
            valueName: "level"))
    var demodLevel: Int?

    @Option(
        name: .customLong("beast-in"),
        help: ArgumentHelp(
            "Also read frames from a Beast TCP feed (dump1090, readsb); repeatable. Alone (without --device), no dongle is opened.",
            valueName: "host:port"))
    var beastIn: [String] = []

    @Option(
        name: .customLong("beast-listen"),
        help: ArgumentHelp(
            "Also accept Beast pushed in on this port, e.g. mlat-client results on 30104; repeatable. Address 127.0.0.1 unless given.",
            valueName: "[addr:]port"))
    var beastListen: [ListenArgument] = []

    @Option(
        name: .customLong("mqtt-in"),
        help: ArgumentHelp(
            "Also gather the frames other receivers publish to this MQTT broker, each receiver a source of its own (docs/network.md). Alone (without --device), no dongle is opened.",
            valueName: "mqtt[s]://host[:port]"))
    var mqttIn: String?

    @Option(
        name: .customLong("mqtt-topic"),
        help: ArgumentHelp(
            "With --mqtt-in: the topic filter of the frame batches to gather; the receiver's name is the level before /beast. Default: \(ReceiverTopics.defaultBeastFilter).",
            valueName: "filter"))
    var mqttTopic: String?

    @Flag(
        name: .customLong("net-only"),
        help: "Open no dongle: only --beast-in, --beast-listen and --mqtt-in feed the radar.")
    var netOnly = false

    @Flag(name: .customLong("no-fallback"), help: "Exit with an error instead of falling back when there is no dongle.")
    var noFallback = false

    @Option(
        name: .customLong("retry-interval"),
        help: ArgumentHelp("Seconds between attempts to reopen a missing dongle (0.1 to 3600).", valueName: "s"))
    var retryInterval: Double = 5

    func validate() throws {
        // Tuners' gain steps lie between about -10 and 50 dB, and a dongle's crystal is off by
        // tens of ppm: values far outside are typing errors (and beyond 32 bits, untellable to
        // the dongle or rtl_tcp).
        if gain != "auto" && gain != "adaptive" {
            guard let decibels = Double(gain) else {
                throw ValidationError("--gain takes 'adaptive', a number of dB or 'auto'")
            }
            guard (-10...60).contains(decibels) else {
                throw ValidationError("--gain must be 'adaptive', 'auto' or between -10 and 60 dB, got \(gain)")
            }
        }
        if gain != "adaptive" && (gainMin != -10 || gainMax != 60) {
            throw ValidationError("--gain-min and --gain-max apply to --gain adaptive")
        }
        guard (-10...60).contains(gainMin), (-10...60).contains(gainMax), gainMin <= gainMax else {
            throw ValidationError(
                "--gain-min and --gain-max must lie between -10 and 60 dB, the first not above the second")
        }
        if !(-1_000...1_000).contains(ppm) { throw ValidationError("--ppm must be between -1000 and 1000, got \(ppm)") }
        let locals = [replay != nil, rtltcp != nil, netOnly].filter { $0 }.count
        if locals > 1 { throw ValidationError("choose one of --replay, --rtltcp and --net-only") }
        if netOnly && beastIn.isEmpty && beastListen.isEmpty && mqttIn == nil {
            throw ValidationError("--net-only needs a --beast-in, --beast-listen or --mqtt-in to feed the radar")
        }
        if let mqttIn { try MQTTOptions.broker(mqttIn, option: "--mqtt-in") }
        if let mqttTopic {
            if mqttIn == nil { throw ValidationError("--mqtt-topic applies to --mqtt-in") }
            if let problem = ReceiverTopics.problem(beastFilter: mqttTopic) {
                throw ValidationError("--mqtt-topic: \(problem)")
            }
        }
        for endpoint in beastIn where BeastInput.endpoint(endpoint) == nil {
            throw ValidationError("--beast-in takes HOST:PORT, e.g. 127.0.0.1:30005 (got '\(endpoint)')")
        }
        if let rtltcp, BeastInput.endpoint(rtltcp) == nil {
            throw ValidationError("--rtltcp takes HOST:PORT, e.g. 192.168.1.20:1234")
        }
        try validateReplayAndDemodulator()
        if device != nil && local != .dongle {
            throw ValidationError("--device applies to a local dongle, not to --replay, --rtltcp or --net-only")
        }
        if !(retryInterval.isFinite && (0.1...3_600).contains(retryInterval)) {
            throw ValidationError("--retry-interval must be between 0.1 and 3600 seconds, got \(retryInterval)")
        }
    }

    /// The replay's pace and the demodulator's level and budget.
    private func validateReplayAndDemodulator() throws {
        if (throttle || loop || format != nil || speed != nil) && replay == nil {
            throw ValidationError("--throttle, --speed, --loop and --format apply to --replay")
        }
        if loop && replay == "-" {
            throw ValidationError("--loop cannot start standard input again: --replay - plays once")
        }
        if let speed, !(speed.isFinite && (0.01...ReplaySource.maximumSpeed).contains(speed)) {
            throw ValidationError("--speed must be between 0.01 and 64, got \(speed)")
        }
        if throttle && speed != nil { throw ValidationError("give one of --throttle and --speed") }
        if !(demodBudget.isFinite && (1...400).contains(demodBudget)) {
            throw ValidationError("--demod-budget must be between 1 and 400 (% of one core), got \(demodBudget)")
        }
        if let demodLevel, DemodulatorLevel(demodLevel) == nil {
            throw ValidationError("--demod-level must be 0 (plain) to 4 (every technique), got \(demodLevel)")
        }
    }

    /// The local receiver the options choose.
    enum Local {
        case replay, rtltcp, dongle, none
    }

    /// The dongle is opened unless a recording or rtl_tcp replaces it, or only network feeds
    /// were asked for (--net-only, or --beast-in without --device: the daemon then sits on
    /// top of another program that owns the dongle).
    var local: Local {
        if replay != nil { return .replay }
        if rtltcp != nil { return .rtltcp }
        if netOnly || ((!beastIn.isEmpty || mqttIn != nil) && device == nil) { return .none }
        return .dongle
    }

    /// The sources these options ask for, as the daemon takes them; the dongle's fallback is
    /// `openSky`'s, around `receiver`.
    func configuration(openSky: OpenSkyOptions, mqtt: MQTTOptions, receiver: GeoPoint?, stateDirectory: String?)
        throws -> SourcesConfiguration
    {
        var sources = SourcesConfiguration()
        sources.demodulator.cancelOverlaps = cancelOverlaps
        if let demodLevel, let level = DemodulatorLevel(demodLevel) {
            sources.demodulator.level = level
        } else if local != .replay || speed != nil {
            // A replay as fast as possible has no real time to keep up with.
            sources.demodulator.budget = demodBudget / 100
            sources.demodulator.pace = speed ?? 1
        }
        var tuner = RTLSDRDevice.Configuration()
        tuner.selector = .init(device ?? "0")
        tuner.sampleRate = sampleRate.hertz
        switch gain {
        case "auto": tuner.gain = .automatic
        case "adaptive":
            tuner.gain = .adaptive(start: nil, bounds: gainMin...gainMax, memory: stateDirectory.map(GainMemory.init))
        default: tuner.gain = .decibels(Double(gain)!)
        }
        tuner.ppm = ppm
        switch local {
        case .replay:
            guard let replay else { break }
            var configuration = ReplaySource.Configuration(
                path: replay, format: format ?? SampleFormat(fileName: replay) ?? .cu8,
                sampleRate: sampleRate)
            configuration.throttle = throttle
            configuration.speed = speed
            configuration.demodulator = sources.demodulator
            configuration.loop = loop
            sources.local = .replay(configuration)
        case .rtltcp:
            guard let rtltcp, let endpoint = BeastInput.endpoint(rtltcp) else { break }
            sources.local = .rtltcp(host: endpoint.host, port: endpoint.port, tuner: tuner)
        case .dongle:
            sources.local = .dongle(
                tuner: tuner, fallback: try openSky.configuration(receiver: receiver), noFallback: noFallback,
                retryInterval: .milliseconds(Int(retryInterval * 1000)))
        case .none:
            break
        }
        sources.beastIn = beastIn.compactMap { BeastInput.endpoint($0) }
        sources.beastListen = beastListen.map { ($0.host, $0.port) }
        if let mqttIn {
            sources.mqttIn = (
                try mqtt.configuration(url: mqttIn, role: "in"), mqttTopic ?? ReceiverTopics.defaultBeastFilter,
                mqtt.url == nil ? nil : mqtt.receiverName
            )
        }
        return sources
    }
}
