/// Demodulates a continuous IQ stream, fed in blocks of any size, into validated `Frame`s.
///
/// The stream is converted to magnitudes into one preallocated buffer. A candidate start is
/// only examined once every sample a long reply starting there could touch has arrived, and
/// the unexamined tail of the buffer is kept for the next block, so a reply straddling two
/// blocks is found exactly as if the stream had come in one piece: the same input cut at
/// any points gives the same frames. Partial samples at a block's end are carried over too.
///
/// Frames come out in stream order with a 12 MHz timestamp (the Beast convention) counted
/// from the first sample, refined to the reply's sub-sample phase, and their signal level.
///
/// Not thread-safe: one instance per stream, fed from one thread.
public final class StreamingDemodulator {
    /// Tuning knobs. The defaults were chosen on simulated recordings (yield per SNR
    /// bucket, busy traffic, false frames) and the busy-sky throughput of `make bench`;
    /// `aviator-adsb demod` exposes them as hidden options for such measurements.
    public struct Options: Sendable {
        /// Required gate difference (mean pulse − mean quiet) in sixteenths of the noise
        /// floor. Lower finds weaker replies but scores more noise.
        public var gateSixteenths: Int32 = 18
        /// Required preamble-score difference in sixteenths of the noise floor.
        public var preambleSixteenths: Int32 = 14
        /// How loud a preamble's quiet chips may be relative to its pulses, in sixteenths
        /// (16: no limit). See `PreambleDetector`.
        public var quietToPulseSixteenths: Int32 = 8
        /// Inside a decoded frame, a new candidate must be this much stronger (pulse minus
        /// quiet, in sixteenths of the frame's pulse level above the floor).
        public var insideStrengthSixteenths: Int32 = 24
        /// How many of a candidate's best phases are sliced before giving up on it.
        public var maximumPhases = 3
        /// After a frame, resume searching right after its preamble (true) rather than after
        /// its last bit, so a second reply starting inside the first can still be found.
        public var searchInsideFrames = true
        /// Allow two-bit repairs of DF17/18 (only for already-known addresses, see
        /// `RepairGate`).
        public var allowTwoBitCorrection = true
        /// When every phase fails, slice the best phase twice more with the two kinds of
        /// decision feedback (see `BitSlicer`): band-limited pulses smear into the next
        /// bit, and at 2.0 MS/s a reply half a sample off is ambiguous without it.
        public var feedbackRetry = true
        /// A repaired bit must be among this many least confident bits of the reply.
        public var repairRankLimit = 6
        /// The same, for repairs of an address already confirmed by a clean CRC.
        public var knownAddressRankLimit = 24
        /// Address/parity replies must have firmly decided bits (see `RepairGate.firmEnough`).
        public var addressParityFirmness = true

        /// The default options.
        public init() {}
    }

    /// The sample layout of the input.
    public let format: SampleFormat
    /// The sample rate of the input.
    public let sampleRate: SampleRate
    /// What the options were when the demodulator was made.
    public let options: Options
    /// Counters so far.
    public private(set) var statistics = DemodulatorStatistics()

    private let converter: MagnitudeConverter
    private let kernels: ReplyKernels
    private let detector: PreambleDetector
    private let slicer: BitSlicer
    private var noise = NoiseFloorEstimator()
    private var validator: FrameValidator

    /// Samples converted per pass; the buffer holds this plus the kept tail.
    private static let chunkSamples = 1 << 16
    private let capacity: Int
    private let magnitudes: UnsafeMutablePointer<UInt16>
    /// |score| of each bit of the reply being examined.
    private let confidence: UnsafeMutablePointer<Int32>
    private let repairGate: RepairGate
    private var seen = SeenAddresses()
    /// Absolute index of `magnitudes[0]`.
    private var bufferStart = 0
    /// Valid magnitudes in the buffer.
    private var filled = 0
    /// Absolute index of the next candidate start to examine.
    private var nextCandidate = 0
    /// Bytes of an incomplete sample carried to the next block.
    private var carry: (UInt64, UInt64) = (0, 0)
    private var carryCount = 0
    private var finished = false
    /// The last emitted frame and where, to drop the same reply found again nearby.
    private var lastBits: ModeSBits?
    private var lastStart = Int.min
    /// The end of the last accepted frame: weakly checked frames are not taken from inside
    /// it (see `PreambleDetector.looksLikeDataWindow`).
    private var insideFrameUntil = 0
    /// The gate threshold inside that frame: a reply starting there is only recoverable
    /// when it is clearly stronger than the frame it overlaps, whose own Manchester data
    /// otherwise passes the gate at almost every sample (the main cost in busy traffic).
    private var insideGateThreshold: Int32 = 0
    private let ticksPerSample: UInt64

    /// A demodulator for a stream of `format` samples at `sampleRate`.
    public init(format: SampleFormat, sampleRate: SampleRate, options: Options = Options()) {
        self.format = format
        self.sampleRate = sampleRate
        self.options = options
        self.converter = MagnitudeConverter(format: format)
        self.kernels = ReplyKernels(sampleRate: sampleRate)
        var detector = PreambleDetector(kernels: kernels)
        detector.minimumPulseToFloorSixteenths = options.preambleSixteenths
        detector.maximumQuietToPulseSixteenths = options.quietToPulseSixteenths
        self.detector = detector
        self.slicer = BitSlicer(kernels: kernels)
        self.validator = FrameValidator(allowTwoBitCorrection: options.allowTwoBitCorrection)
        // The kept tail is at most one noise window (positions waiting for their floor)
        // plus one reply span; padding of one reply span lets the last positions be read
        // past the end of the stream without checks.
        self.capacity = Self.chunkSamples + NoiseFloorEstimator.windowLength + 2 * kernels.replySpan
        self.magnitudes = .allocate(capacity: capacity)
        self.magnitudes.initialize(repeating: 0, count: capacity)
        self.confidence = .allocate(capacity: ReplyKernels.maximumBits)
        self.confidence.initialize(repeating: 0, count: ReplyKernels.maximumBits)
        self.repairGate = RepairGate(rankLimit: options.repairRankLimit,
                                     knownAddressRankLimit: options.knownAddressRankLimit,
                                     allowTwoBits: options.allowTwoBitCorrection)
        self.ticksPerSample = UInt64(12_000_000 / sampleRate.hertz)
    }

    deinit {
        magnitudes.deallocate()
        confidence.deallocate()
    }

    /// Feeds the next bytes of the stream; `emit` receives every frame completed so far.
    public func process(_ bytes: UnsafeRawBufferPointer, emit: (Frame) -> Void) {
        precondition(!finished, "process after finish")
        guard var source = bytes.baseAddress, !bytes.isEmpty else { return }
        var remaining = bytes.count
        let size = format.bytesPerSample
        if carryCount > 0 {
            let take = min(size - carryCount, remaining)
            withUnsafeMutableBytes(of: &carry) { carryBytes in
                carryBytes.baseAddress!.advanced(by: carryCount).copyMemory(from: source, byteCount: take)
            }
            carryCount += take
            source += take
            remaining -= take
            if carryCount == size {
                withUnsafeBytes(of: &carry) { append($0.baseAddress!, count: 1, emit: emit) }
                carryCount = 0
            }
        }
        let whole = remaining / size
        if whole > 0 { append(source, count: whole, emit: emit) }
        let rest = remaining - whole * size
        if rest > 0 {
            withUnsafeMutableBytes(of: &carry) { carryBytes in
                carryBytes.baseAddress!.copyMemory(from: source + whole * size, byteCount: rest)
            }
            carryCount = rest
        }
        search(final: false, emit: emit)
    }

    /// Ends the stream: examines the last positions and returns how many bytes of an
    /// incomplete final sample were left over (0 for a well-formed stream).
    @discardableResult
    public func finish(emit: (Frame) -> Void) -> Int {
        guard !finished else { return carryCount }
        noise.finish()
        search(final: true, emit: emit)
        finished = true
        return carryCount
    }

    /// Converts `count` whole samples and searches whenever the buffer fills up.
    private func append(_ source: UnsafeRawPointer, count: Int, emit: (Frame) -> Void) {
        var done = 0
        while done < count {
            let room = capacity - kernels.replySpan - filled
            if room <= 0 {
                search(final: false, emit: emit)
                continue
            }
            let n = min(room, count - done)
            converter.convert(source + done * format.bytesPerSample, count: n, into: magnitudes + filled)
            noise.absorb(magnitudes + filled, count: n)
            filled += n
            done += n
            statistics.samples += n
        }
    }

    /// Examines every candidate start whose samples (and noise floor) are all available,
    /// then moves the unexamined tail to the front of the buffer.
    private func search(final: Bool, emit: (Frame) -> Void) {
        let end = bufferStart + filled
        let limit: Int
        if final {
            // Pad with silence so the last positions can be read like any other.
            (magnitudes + filled).update(repeating: 0, count: kernels.replySpan)
            limit = end
        } else {
            limit = min(end - kernels.replySpan, noise.completedWindows * NoiseFloorEstimator.windowLength)
        }
        if nextCandidate < limit {
            switch sampleRate {
            case .twoPointFourMega: scan(Gate2400.self, upTo: limit, emit: emit)
            case .twoMega: scan(Gate2000.self, upTo: limit, emit: emit)
            }
        }
        // Keep everything from the next unexamined position.
        let keepFrom = min(max(nextCandidate, bufferStart), end)
        let kept = end - keepFrom
        if keepFrom > bufferStart, kept > 0 {
            magnitudes.update(from: magnitudes + (keepFrom - bufferStart), count: kept)
        }
        bufferStart = keepFrom
        filled = kept
    }

    /// The hot loop: gate every position in [nextCandidate, limit), examine the survivors.
    @inline(__always)
    private func scan<Gate: CandidateGate>(_ gate: Gate.Type, upTo limit: Int, emit: (Frame) -> Void) {
        var position = nextCandidate
        while position < limit {
            // The floor is constant within a noise window: scan window by window.
            let windowEnd = min(limit, (position / NoiseFloorEstimator.windowLength + 1) * NoiseFloorEstimator.windowLength)
            let floor = noise.floor(at: position)
            let threshold = Int32(truncatingIfNeeded: (Int64(floor) * 24 * Int64(options.gateSixteenths)) >> 4)
            let base = magnitudes - bufferStart
            var scalarUntil = position
            while position < windowEnd {
                // Inside a frame just decoded, only a much stronger reply can still be
                // recovered, so the gate asks for more (see `insideGateThreshold`).
                let inside = position < insideFrameUntil
                let current = inside ? max(threshold, insideGateThreshold) : threshold
                // Eight starts at a time while all eight fail (the common case in noise).
                if position + 8 <= windowEnd, position >= scalarUntil {
                    let blockThreshold = position + 8 <= insideFrameUntil || !inside ? current : threshold
                    if !Gate.anyOfEightPasses(base + position, threshold: blockThreshold) {
                        position += 8
                        continue
                    }
                    // One of these eight passes: test them one by one.
                    scalarUntil = position + 8
                }
                if !Gate.passes(base + position, threshold: current) {
                    position += 1
                    continue
                }
                if let resume = examine(at: position, floor: floor, emit: emit) {
                    position = resume
                } else {
                    position += 1
                }
            }
        }
        nextCandidate = position
    }

    /// Scores the preamble at `position`, slices its best phases and validates them.
    /// Returns where to resume after an accepted frame, nil when there was none.
    private func examine(at position: Int, floor: UInt32, emit: (Frame) -> Void) -> Int? {
        statistics.candidates += 1
        let samples = UnsafePointer(magnitudes + (position - bufferStart))
        let phases = detector.phases(at: samples, floor: floor)
        // A further phase is worth slicing only when its preamble fits nearly as well as
        // the best one (within a quarter); otherwise it is just the same noise again.
        var tries = 1
        while tries < min(phases.count, options.maximumPhases),
              4 * Int64(phases.score(tries)) >= 3 * Int64(phases.score(0)) {
            tries += 1
        }
        guard phases.count > 0 else { return nil }
        let time = Double(position) / Double(sampleRate.hertz)
        // Plain decisions at the best phases first, then the best two phases again with
        // each kind of decision feedback (see `BitSlicer`).
        let feedbackAttempts = options.feedbackRetry ? (tries > 1 ? 4 : 2) : 0
        for attempt in 0..<(tries + feedbackAttempts) {
            let feedback = attempt >= tries
            let rank = feedback ? (attempt - tries) / 2 : attempt
            let phase = phases.index(rank)
            let amplitude: Int32
            if !feedback {
                amplitude = 0
            } else if (attempt - tries) % 2 == 0 {
                amplitude = max(1, Int32(detector.pulseAmplitude(at: samples, phase: phase) - Double(floor)))
            } else {
                amplitude = BitSlicer.smearFeedback
            }
            statistics.attempts += 1
            guard let bits = slicer.slice(samples, phase: phase, feedback: amplitude) else { continue }
            let screening = repairGate.screen(bits)
            if screening == .reject { continue }
            if screening != .clean {
                // Weakly checked (address parity, repair, interrogator code): never from
                // the inside of a reply just decoded, nor from what looks like one.
                guard position >= insideFrameUntil,
                      !detector.looksLikeDataWindow(at: samples, phase: phase, floor: floor) else { continue }
            }
            if screening == .addressParity {
                // The validator would refuse an address it never confirmed: skip the
                // checks below for the many noise slices that end here.
                guard seen.mayContain(CRC.syndrome(of: bits)) else { continue }
            }
            if screening == .addressParity, options.addressParityFirmness {
                slicer.confidence(samples, phase: phase, feedback: amplitude, into: confidence)
                let amplitude = detector.pulseMean(at: samples, phase: phase) - Double(floor)
                let typical = Int32(max(0, amplitude)) &* kernels.bitScale
                guard repairGate.firmEnough(confidence, count: bits.bitCount, typicalScore: typical) else { continue }
            }
            if bits.downlinkFormat == 11 {
                // A DF11's interrogator code (the low 7 parity bits) cannot be checked at
                // all: one wrong bit there is just another code, or no code. So an all-call
                // reply is only believed when no much stronger reply overlaps it (its pulses
                // flip bits firmly, beyond what bit confidences reveal) and, if decision
                // feedback was needed (it can propagate one wrong decision), when the plain
                // decisions agree on those 7 bits.
                guard !overlapped(bits, samples, phase: phase, floor: floor) else { continue }
                if feedback {
                    // Feedback corrected something; believe it only at the best phase and
                    // if the plain decisions already agreed on the unverifiable 7 bits.
                    guard rank == 0, let plain = slicer.slice(samples, phase: phase, feedback: 0),
                          plain.bitCount == 56, plain.field(50, 56) == bits.field(50, 56) else { continue }
                }
            }
            if screening == .needsJudgement {
                slicer.confidence(samples, phase: phase, feedback: amplitude, into: confidence)
                switch repairGate.judge(bits, confidence: confidence) {
                case .admit: break
                case .reject: continue
                case .admitIfKnown(let address):
                    var filter = validator.icaoFilter
                    guard filter.contains(address, at: time) else { continue }
                }
            }
            guard let validated = validator.validate(bits, time: time) else { continue }
            return accept(validated, at: position, phase: phase, samples: samples, floor: floor, emit: emit)
        }
        return nil
    }

    /// Whether another signal overlaps the reply at `samples`: a sample anywhere in its span
    /// more than twice its pulse amplitude above the floor (noise alone rarely gets there
    /// except for the weakest replies), or pulse energy in the chips its bits leave empty.
    private func overlapped(_ bits: ModeSBits, _ samples: UnsafePointer<UInt16>, phase: Int, floor: UInt32) -> Bool {
        let amplitude = detector.pulseAmplitude(at: samples, phase: phase) - Double(floor)
        let limit = Double(floor) + 2 * max(0, amplitude)
        if limit < 65535 {
            let threshold = UInt16(limit)
            for index in 0..<kernels.span(bitCount: bits.bitCount) where samples[index] > threshold { return true }
        }
        // Also an equally strong (or clipped) overlap: pulses where the reply has none.
        // Only the last bits (the interrogator code and its neighbours) matter here, and the
        // band-limited pulses leak up to about half their level into empty chips, so a chip
        // counts as loud at three quarters of the pulse level.
        let offLimit = Double(floor) + 0.75 * max(0, amplitude)
        return slicer.loudOffChips(bits, samples, phase: phase, limit: offLimit, from: bits.bitCount - 10) >= 1
    }

    /// Stamps, counts and emits a validated frame (unless it repeats the previous one), and
    /// returns where to resume the search.
    private func accept(_ validated: Frame, at position: Int, phase: Int, samples: UnsafePointer<UInt16>,
                        floor: UInt32, emit: (Frame) -> Void) -> Int {
        var frame = validated
        let offset = kernels.phaseOffsets[phase]
        frame.timestamp = UInt64(position) * ticksPerSample + UInt64(offset) * ticksPerSample / 10
        frame.signalLevel = Decibels.fromAmplitude(detector.pulseAmplitude(at: samples, phase: phase),
                                                   fullScale: MagnitudeConverter.fullScale)
        let span = kernels.span(bitCount: frame.bits.bitCount)
        if let lastBits, lastBits == frame.bits, position - lastStart < span {
            statistics.duplicates += 1
        } else {
            switch frame.downlinkFormat {
            case 11, 17, 18: seen.insert(frame.address)
            default: break
            }
            statistics.framesPerFormat[frame.downlinkFormat] += 1
            if frame.correctedBits > 0 { statistics.correctedFrames += 1 }
            emit(frame)
        }
        lastBits = frame.bits
        lastStart = position
        insideFrameUntil = max(insideFrameUntil, position + span)
        // The gate measures 24 × (mean pulse − mean quiet); require that difference to
        // exceed `insideStrengthSixteenths`/16 of this frame's pulse level above the floor.
        let level = max(0, detector.pulseMean(at: samples, phase: phase) - Double(floor))
        insideGateThreshold = Int32(min(Double(Int32.max / 2), 24 * level * Double(options.insideStrengthSixteenths) / 16))
        return position + (options.searchInsideFrames ? kernels.preambleSpan : span)
    }
}
