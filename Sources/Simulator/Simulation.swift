import IQ
import ModeS

/// A complete simulated recording: settings in, IQ file and truth file out.
package struct Simulation {
    /// What to simulate.
    package struct Settings: Sendable {
        /// Sample format of the IQ file.
        package var format: SampleFormat = .cu8
        /// Samples per second: 2,000,000 or 2,400,000.
        package var sampleRate: Int = 2_400_000
        /// Length in seconds.
        package var duration: Double = 10
        /// Number of aircraft (nil: 20, or 150 when `busy`).
        package var aircraft: Int? = nil
        /// The seed: the same seed gives the same bytes.
        package var seed: UInt64 = 1
        /// A fixed SNR range (dB) for every message, or nil for distance-derived SNR.
        package var snrRange: ClosedRange<Double>? = nil
        /// The receiver's position.
        package var receiver = GeoPoint(latitude: 52.0, longitude: 4.4)
        /// A dense sky near an airport.
        package var busy = false
        /// The receiver's impairments and the sky's interference (`Channel.kind`: none).
        package var channel = Channel.kind

        /// Default settings.
        package init() {}

        /// The aircraft count actually used.
        package var aircraftCount: Int { aircraft ?? (busy ? 150 : 20) }

        /// Throws when a setting is out of range.
        package func validate() throws {
            guard sampleRate == 2_000_000 || sampleRate == 2_400_000 else {
                throw SimulationError.invalidSetting("sample rate must be 2.0M or 2.4M, not \(sampleRate)")
            }
            guard duration > 0, duration <= 3600 else {
                throw SimulationError.invalidSetting("duration must be between 0 and 3600 s")
            }
            guard (0...2000).contains(aircraftCount) else {
                throw SimulationError.invalidSetting("aircraft must be between 0 and 2000")
            }
            if let range = snrRange, range.lowerBound < -20 || range.upperBound > 60 {
                throw SimulationError.invalidSetting("SNR range must lie within -20...60 dB")
            }
            try validateChannel()
            guard abs(receiver.latitude) <= 85, abs(receiver.longitude) <= 180 else {
                throw SimulationError.invalidSetting("receiver latitude must be within ±85° and longitude within ±180°")
            }
        }
    }

    /// What a run produced.
    package struct Summary: Sendable {
        /// Messages on air.
        package var messages: Int
        /// Messages that overlap another.
        package var overlapped: Int
        /// Complex samples written.
        package var samples: Int
        /// Bytes of the IQ file.
        package var bytes: Int
        /// I or Q components clipped to the format's range.
        package var clipped: Int
    }

    /// The settings.
    package let settings: Settings
    /// The sky.
    package let scenario: Scenario
    /// Every message, in time order.
    package let transmissions: [Transmission]

    /// Builds the sky and its schedule (cheap; nothing is rendered yet).
    package init(settings: Settings) throws {
        try settings.validate()
        self.settings = settings
        let root = SeededGenerator(seed: settings.seed)
        var skyGenerator = root.stream(1)
        scenario = Scenario(
            receiver: settings.receiver, count: settings.aircraftCount, busy: settings.busy,
            generator: &skyGenerator)
        var levels = SignalLevelModel(fixedRange: settings.snrRange)
        levels.cap = levels.cap.lowerBound...settings.channel.strongestSnrDb
        let schedule = TransmissionSchedule(
            scenario: scenario, duration: settings.duration, levels: levels,
            generator: root.stream(2), channel: settings.channel)
        transmissions = schedule.transmissions
        modeACReplies = schedule.modeACReplies
    }

    /// The Mode A/C replies on air (interference: not in the truth).
    package let modeACReplies: [ModeACReply]

    /// Total complex samples of the recording.
    package var totalSamples: Int { Int((settings.duration * Double(settings.sampleRate)).rounded()) }

    /// Writes the IQ file to `path` and its truth to `path + ".truth.jsonl"`; `progress`
    /// receives a fraction done now and then.
    package func write(to path: String, progress: (Double) -> Void = { _ in }) throws -> Summary {
        let writer = try SampleWriter(path: path, format: settings.format)
        let modulator = Modulator(sampleRate: Double(settings.sampleRate))
        var noise = SeededGenerator(seed: settings.seed).stream(3)
        let total = totalSamples
        var done = 0
        var lastReported = 0.0
        var chain = ChannelChain(
            settings.channel, sampleRate: Double(settings.sampleRate),
            generator: SeededGenerator(seed: settings.seed).stream(4))
        try modulator.render(
            transmissions, interference: modeACReplies, totalSamples: total, noise: &noise,
            channel: &chain
        ) { block in
            try writer.write(block)
            done += block.count / 2
            let fraction = Double(done) / Double(max(total, 1))
            if fraction - lastReported >= 0.1 {
                lastReported = fraction
                progress(fraction)
            }
        }
        try writer.close()
        let header = TruthWriter.Header(
            format: settings.format, sampleRate: settings.sampleRate,
            duration: settings.duration, seed: settings.seed,
            aircraft: scenario.aircraft.count, receiver: settings.receiver,
            receiverAltitudeM: scenario.receiverAltitudeM,
            snrRange: settings.snrRange, busy: settings.busy,
            channel: settings.channel.isKind ? nil : settings.channel,
            modeACReplies: modeACReplies.count)
        try TruthWriter.write(
            path: path + ".truth.jsonl", header: header, scenario: scenario,
            transmissions: transmissions)
        return Summary(
            messages: transmissions.count, overlapped: transmissions.filter(\.overlap).count,
            samples: total, bytes: writer.bytesWritten,
            clipped: writer.clippedComponents + chain.clippedComponents)
    }
}

extension Simulation.Settings {
    /// Throws when a channel setting is out of the range it models.
    func validateChannel() throws {
        let c = channel
        func check(_ ok: Bool, _ problem: String) throws {
            if !ok { throw SimulationError.invalidSetting(problem) }
        }
        if let m = c.multipath { try check((0...1).contains(m.fraction), "multipath share must be within 0...1") }
        if let f = c.filter {
            try check(
                f.bandwidth > 0.01 && f.bandwidth < 0.49,
                "filter bandwidth must be within 0.01...0.49 of the sample rate")
            try check(f.damping >= 0.05 && f.damping <= 5, "filter damping must be within 0.05...5")
        }
        try check(abs(c.tuningErrorHz) <= 500_000, "tuning error must be within ±500 kHz")
        try check(c.phaseNoise >= 0 && c.phaseNoise <= 0.5, "phase noise must be within 0...0.5 rad per sample")
        if let g = c.gainSteps {
            try check(
                g.rangeDb >= 0 && g.rangeDb <= 20 && g.meanIntervalS > 0,
                "gain steps must be within 0...20 dB, at a positive interval")
        }
        if let r = c.rail { try check(r >= 8 && r <= 127.5, "the rail must be within 8...127.5 LSB") }
        if let i = c.iqImbalance {
            try check(abs(i.gainDb) <= 6 && abs(i.phaseDeg) <= 30, "IQ imbalance must be within ±6 dB and ±30°")
        }
        if let d = c.dcOffset { try check(abs(d.i) <= 64 && abs(d.q) <= 64, "DC offset must be within ±64 LSB") }
        if let a = c.modeAC {
            try check(
                a.ratePerAircraft >= 0 && a.ratePerAircraft <= 1000,
                "Mode A/C rate must be within 0...1000 per aircraft per second")
        }
        if let s = c.stations {
            try check(
                (0...63).contains(s.count) && s.repliesPerSecond >= 0 && s.repliesPerSecond <= 100,
                "ground stations must number 0...63 with 0...100 replies per second")
        }
        if let t = c.trains {
            try check(
                (0...1).contains(t.fraction) && t.trainsPerSecond >= 0 && t.trainsPerSecond <= 100,
                "interrogation trains: share within 0...1, 0...100 per second")
        }
        try check(c.strongestSnrDb >= 10 && c.strongestSnrDb <= 60, "strongest SNR must be within 10...60 dB")
    }
}
