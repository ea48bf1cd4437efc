/// What lies between the transponders and the recorded samples: the receiver's impairments
/// and the sky's interference, each switched on by its own setting.
///
/// `kind` is none of them: ideal pulses through a band limit over white noise, the channel
/// the simulator always had (kept for comparisons, bit for bit). `realistic` is the mix a
/// dongle on a roof sees: echoes from a tenth of the aircraft, a ringing filter,
/// a tuner a few tens of kHz off with some phase noise, a small DC offset and IQ imbalance,
/// the gain stepping now and then, strong aircraft up to 30 dB that reach the converter's
/// rails, Mode A/C replies, all-call replies to several ground stations, and trains of
/// Comm-B replies from aircraft near a radar.
///
/// The SNR of a reply (its truth line) is set on the direct path, before any of this.
package struct Channel: Sendable, Equatable {
    /// Echoes, per aircraft.
    package var multipath: Multipath?
    /// The receiver's band limit and ringing: natural frequency (fraction of the sample rate)
    /// and damping (see `ReceiverFilter`).
    package var filter: (bandwidth: Double, damping: Double)?
    /// The tuner's frequency error, Hz.
    package var tuningErrorHz: Double = 0
    /// The tuner's phase noise, radians rms per sample step.
    package var phaseNoise: Double = 0
    /// The converter's IQ imbalance.
    package var iqImbalance: IQImbalance?
    /// The converter's DC offset.
    package var dcOffset: DCOffset?
    /// Gain steps: ±range (dB) and mean interval (s).
    package var gainSteps: (rangeDb: Double, meanIntervalS: Double)?
    /// The converter's rails, LSB from zero (nil: only the sample format's own range).
    package var rail: Double?
    /// Mode A/C replies.
    package var modeAC: ModeACReplies?
    /// All-call replies to ground stations with their interrogator codes.
    package var stations: GroundStations?
    /// Trains of Comm-B replies.
    package var trains: InterrogationTrains?
    /// The strongest distance-derived SNR, dB (the kind channel stops at 25 dB, short of the
    /// rails; a receiver near an airport sees much stronger replies).
    package var strongestSnrDb: Double = 25

    /// The old, kind channel: nothing but the band limit and white noise.
    package static let kind = Channel()

    /// The realistic default mix (see the type's description for what and why).
    package static let realistic: Channel = {
        var channel = Channel()
        channel.multipath = Multipath(fraction: 0.1)
        channel.filter = (bandwidth: 0.35, damping: 0.6)
        channel.tuningErrorHz = 25_000
        channel.phaseNoise = 0.004
        channel.iqImbalance = IQImbalance(gainDb: 0.4, phaseDeg: 2.5)
        channel.dcOffset = DCOffset(i: 1.2, q: -0.8)
        channel.gainSteps = (rangeDb: 1.5, meanIntervalS: 4)
        channel.rail = 127.5
        channel.modeAC = ModeACReplies(ratePerAircraft: 5)
        channel.stations = GroundStations(count: 6, repliesPerSecond: 0.3)
        channel.trains = InterrogationTrains(fraction: 0.05, trainsPerSecond: 1)
        channel.strongestSnrDb = 30
        return channel
    }()

    /// Whether nothing is switched on: the recording is rendered exactly as it always was.
    package var isKind: Bool { self == .kind }

    /// A kind channel.
    package init() {}

    /// Equal when every setting is.
    package static func == (a: Channel, b: Channel) -> Bool {
        a.multipath == b.multipath && a.filter?.bandwidth == b.filter?.bandwidth
            && a.filter?.damping == b.filter?.damping && a.tuningErrorHz == b.tuningErrorHz
            && a.phaseNoise == b.phaseNoise && a.iqImbalance == b.iqImbalance && a.dcOffset == b.dcOffset
            && a.gainSteps?.rangeDb == b.gainSteps?.rangeDb && a.gainSteps?.meanIntervalS == b.gainSteps?.meanIntervalS
            && a.rail == b.rail && a.modeAC == b.modeAC && a.stations == b.stations && a.trains == b.trains
            && a.strongestSnrDb == b.strongestSnrDb
    }

    /// The receiver stages in signal order: those acting on the signal alone (the tuner, the
    /// filter), those acting on the receiver noise before it joins the signal (the filter,
    /// power kept), and those acting on signal and noise together (the gain, the converter).
    /// Randomness comes from `generator`'s sub-streams.
    func stages(sampleRate: Double, generator: SeededGenerator)
        -> (signal: [any ChannelStage], noise: [any ChannelStage], received: [any ChannelStage])
    {
        var signal: [any ChannelStage] = []
        var noise: [any ChannelStage] = []
        var received: [any ChannelStage] = []
        if tuningErrorHz != 0 || phaseNoise > 0 {
            signal.append(
                LocalOscillator(
                    offsetHz: tuningErrorHz, phaseNoise: phaseNoise, sampleRate: sampleRate,
                    generator: generator.stream(1)))
        }
        if let filter {
            let stage = ReceiverFilter(bandwidth: filter.bandwidth, damping: filter.damping).forNoise()
            signal.append(stage)
            noise.append(stage)
        }
        if let gainSteps {
            received.append(
                GainSteps(
                    rangeDb: gainSteps.rangeDb, meanIntervalS: gainSteps.meanIntervalS,
                    sampleRate: sampleRate, generator: generator.stream(2)))
        }
        if let iqImbalance { received.append(iqImbalance) }
        if let dcOffset { received.append(dcOffset) }
        if let rail { received.append(Clipping(rail: rail)) }
        return (signal, noise, received)
    }
}
