import ModeS
import ModeSDemod

/// A complete simulated recording: settings in, IQ file and truth file out.
public struct Simulation {
    /// What to simulate.
    public struct Settings: Sendable {
        /// Sample format of the IQ file.
        public var format: SampleFormat = .cu8
        /// Samples per second: 2,000,000 or 2,400,000.
        public var sampleRate: Int = 2_400_000
        /// Length in seconds.
        public var duration: Double = 10
        /// Number of aircraft (nil: 20, or 150 when `busy`).
        public var aircraft: Int? = nil
        /// The seed: the same seed gives the same bytes.
        public var seed: UInt64 = 1
        /// A fixed SNR range (dB) for every message, or nil for distance-derived SNR.
        public var snrRange: ClosedRange<Double>? = nil
        /// The receiver's position.
        public var receiver = GeoPoint(latitude: 52.0, longitude: 4.4)
        /// A dense sky near an airport.
        public var busy = false

        /// Default settings.
        public init() {}

        /// The aircraft count actually used.
        public var aircraftCount: Int { aircraft ?? (busy ? 150 : 20) }

        /// Throws when a setting is out of range.
        public func validate() throws {
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
            guard abs(receiver.latitude) <= 85, abs(receiver.longitude) <= 180 else {
                throw SimulationError.invalidSetting("receiver latitude must be within ±85° and longitude within ±180°")
            }
        }
    }

    /// What a run produced.
    public struct Summary: Sendable {
        /// Messages on air.
        public var messages: Int
        /// Messages that overlap another.
        public var overlapped: Int
        /// Complex samples written.
        public var samples: Int
        /// Bytes of the IQ file.
        public var bytes: Int
        /// I or Q components clipped to the format's range.
        public var clipped: Int
    }

    /// The settings.
    public let settings: Settings
    /// The sky.
    public let scenario: Scenario
    /// Every message, in time order.
    public let transmissions: [Transmission]

    /// Builds the sky and its schedule (cheap; nothing is rendered yet).
    public init(settings: Settings) throws {
        try settings.validate()
        self.settings = settings
        let root = SeededGenerator(seed: settings.seed)
        var skyGenerator = root.stream(1)
        scenario = Scenario(receiver: settings.receiver, count: settings.aircraftCount, busy: settings.busy,
                            generator: &skyGenerator)
        transmissions = TransmissionSchedule(scenario: scenario, duration: settings.duration,
                                             levels: SignalLevelModel(fixedRange: settings.snrRange),
                                             generator: root.stream(2)).transmissions
    }

    /// Total complex samples of the recording.
    public var totalSamples: Int { Int((settings.duration * Double(settings.sampleRate)).rounded()) }

    /// Writes the IQ file to `path` and its truth to `path + ".truth.jsonl"`; `progress`
    /// receives a fraction done now and then.
    public func write(to path: String, progress: (Double) -> Void = { _ in }) throws -> Summary {
        let writer = try SampleWriter(path: path, format: settings.format)
        let modulator = Modulator(sampleRate: Double(settings.sampleRate))
        var noise = SeededGenerator(seed: settings.seed).stream(3)
        let total = totalSamples
        var done = 0
        var lastReported = 0.0
        try modulator.render(transmissions, totalSamples: total, noise: &noise) { block in
            try writer.write(block)
            done += block.count / 2
            let fraction = Double(done) / Double(max(total, 1))
            if fraction - lastReported >= 0.1 {
                lastReported = fraction
                progress(fraction)
            }
        }
        try writer.close()
        let header = TruthWriter.Header(format: settings.format, sampleRate: settings.sampleRate,
                                        duration: settings.duration, seed: settings.seed,
                                        aircraft: scenario.aircraft.count, receiver: settings.receiver,
                                        receiverAltitudeM: scenario.receiverAltitudeM,
                                        snrRange: settings.snrRange, busy: settings.busy)
        try TruthWriter.write(path: path + ".truth.jsonl", header: header, scenario: scenario,
                              transmissions: transmissions)
        return Summary(messages: transmissions.count, overlapped: transmissions.filter(\.overlap).count,
                       samples: total, bytes: writer.bytesWritten, clipped: writer.clippedComponents)
    }
}
