import ModeS

extension StreamingDemodulator {
    /// Tuning knobs. The defaults were chosen on simulated recordings (yield per SNR
    /// bucket, busy traffic, false frames) and the busy-sky throughput of `make bench`;
    /// `aviator-adsb demod` exposes them as hidden options for such measurements.
    package struct Options: Sendable {
        /// Required gate difference (mean pulse − mean quiet) in sixteenths of the noise
        /// floor. Lower finds weaker replies but scores more noise. Noise on the gate's four
        /// pulse and six quiet samples (Rayleigh magnitudes) moves the difference by about a
        /// third of the floor (one standard deviation), so a reply at 3–6 dB, whose pulses
        /// stand one to two floors above the noise, often falls short of a high gate. Such
        /// replies are worth the look because the channel fit decodes many whose every
        /// slice fails. At 16 (3 standard deviations) about three times as many noise
        /// windows pass as at 18, and the preamble detector turns nearly all of them away.
        package var gateSixteenths: Int32 = 16
        /// How loud the gate's quiet samples may be relative to its pulse samples, both
        /// above the floor, in sixteenths (nil: no limit). See `GateLimits`.
        package var gateQuietSixteenths: Int32? = 10
        /// Required preamble-score difference in sixteenths of the noise floor (see
        /// `PreambleDetector.minimumPulseToFloorSixteenths`). 12 (3.75 standard deviations
        /// of a noise-only score) rather than 14 slices more preambles near the noise:
        /// the CRC and the acceptance rules, not this threshold, keep noise out, and the
        /// replies it adds are mostly ones only the channel fit can decode.
        package var preambleSixteenths: Int32 = 12
        /// How loud a preamble's quiet chips may be relative to its pulses, in sixteenths
        /// (16: no limit). See `PreambleDetector`.
        package var quietToPulseSixteenths: Int32 = 8
        /// Inside a decoded frame, a new candidate must be this strong (pulse minus quiet, in
        /// sixteenths of the frame's pulse level above the floor): the frame's own Manchester
        /// data passes the plain gate at almost every sample, while a reply that can still be
        /// recovered on top of it must stand out against it. Lower lets more of the frame's
        /// own data through to be sliced for nothing; near the noise, where the plain gate
        /// sits close to a weak frame's level, the whole level is what keeps that data out.
        package var insideStrengthSixteenths: Int32 = 16
        /// How many of a candidate's best phases are sliced before giving up on it.
        package var maximumPhases = 3
        /// After a frame, resume searching right after its preamble (true) rather than after
        /// its last bit, so a second reply starting inside the first can still be found.
        package var searchInsideFrames = true
        /// Allow two-bit repairs of DF17/18 (only for already-known addresses, see
        /// `RepairGate`).
        package var allowTwoBitCorrection = true
        /// When every phase fails, slice the best phase twice more with the two kinds of
        /// decision feedback (see `BitSlicer`): band-limited pulses smear into the next
        /// bit, and at 2.0 MS/s a reply half a sample off is ambiguous without it.
        package var feedbackRetry = true
        /// When every phase and feedback slice fails, slice the best phase once more as the
        /// most likely sequence of bits (see `SequenceSlicer`).
        package var sequenceRetry = true
        /// When every other slice fails, decide the best phase once more against the
        /// reply's own fitted channel (see `ChannelFitSlicer`): strong replies smeared by
        /// the receiver's filter, its ringing or an echo.
        package var channelFit = true
        /// A repaired bit must be among this many least confident bits of the reply.
        package var repairRankLimit = 6
        /// The same, for repairs of an address already confirmed by a clean CRC.
        package var knownAddressRankLimit = 24
        /// Address/parity replies must have firmly decided bits (see `RepairGate.firmEnough`).
        package var addressParityFirmness = true
        /// A DF11 with a non-zero interrogator code is only believed once another aircraft
        /// has answered with the same code (see `InterrogatorCodes`).
        package var confirmInterrogatorCodes = true
        /// A DF11 with a non-zero interrogator code from an aircraft already confirmed by a
        /// clean CRC is believed without that second aircraft (see
        /// `AcceptancePolicy.codeOfKnownAddressBelieved`): a station near the edge of the
        /// receiver's reach may interrogate only one aircraft the receiver hears.
        package var knownAddressInterrogatorCodes = true
        /// After a frame that shows another signal around it, subtract the frame from the
        /// IQ samples and search what is left for the reply it overlapped (see
        /// `ReplyCanceller`, `OverlapRecovery`): in a busy sky replies overlap often, and
        /// the weaker of two is otherwise lost under the stronger one's pulses.
        package var cancelOverlaps = true
        /// When every attempt fails on a strong DF17/18 candidate, decide its bits again
        /// coherently, on its own fitted carrier (see `ReplyCanceller.coherentBits`): a
        /// reply overlapped by a weaker one of similar strength. Needs `cancelOverlaps`
        /// (the raw samples).
        package var coherentRetry = true
        /// Repair three bits of a DF17/18 from a known aircraft (see
        /// `RepairGate.threeBitRepair`).
        package var threeBitRepairs = true
        /// Repair one bit of an address/parity reply from a known aircraft (see
        /// `RepairGate.addressParityRepair`).
        package var addressParityRepairs = true

        /// The level the demodulator starts at (see `DemodulatorLevel`); the techniques it
        /// leaves out are off until the level changes.
        package var level = DemodulatorLevel.full
        /// The processor time the demodulator may take, as a share of one core, when a
        /// governor moves its level to keep within it (the daemon's `DemodulatorGovernor`,
        /// for a dongle and a paced replay); nil: it stays at `level`. The demodulator itself
        /// does not read it.
        package var budget: Double?
        /// Seconds of samples per second of wall time: 1 for a dongle, N for a replay at
        /// `--speed N`. The governor counts the processor time as a computer N times slower
        /// would spend it, so the budget means the same share of a core at any speed.
        package var pace = 1.0

        /// The default options.
        package init() {}
    }
}
