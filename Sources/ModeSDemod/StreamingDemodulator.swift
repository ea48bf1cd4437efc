import ModeS
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
        /// quiet, in sixteenths of the frame's pulse level above the floor). 12 (three
        /// quarters of the frame's level) finds about 0.15 points more of a busy sky than 24
        /// with no false frame, for a sixth more CPU time there; lower costs far more time.
        public var insideStrengthSixteenths: Int32 = 12
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
        /// When every phase and feedback slice fails, slice the best phase once more as the
        /// most likely sequence of bits (see `SequenceSlicer`).
        public var sequenceRetry = true
        /// A repaired bit must be among this many least confident bits of the reply.
        public var repairRankLimit = 6
        /// The same, for repairs of an address already confirmed by a clean CRC.
        public var knownAddressRankLimit = 24
        /// Address/parity replies must have firmly decided bits (see `RepairGate.firmEnough`).
        public var addressParityFirmness = true
        /// A DF11 with a non-zero interrogator code is only believed once another aircraft
        /// has answered with the same code (see `InterrogatorCodes`).
        public var confirmInterrogatorCodes = true
        /// After a frame that shows another signal around it, subtract the frame from the
        /// IQ samples and search what is left for the reply it overlapped (see
        /// `ReplyCanceller`). On a busy sky it recovers about 4 points more of the true
        /// frames, with no false one, for about a fifth more CPU time.
        public var cancelOverlaps = true
        /// When every attempt fails on a strong DF17/18 candidate, decide its bits again
        /// coherently, on its own fitted carrier (see `ReplyCanceller.coherentBits`): a
        /// reply overlapped by a weaker one of similar strength. Needs `cancelOverlaps`
        /// (the raw samples).
        public var coherentRetry = true
        /// Repair three bits of a DF17/18 from a known aircraft (see
        /// `RepairGate.threeBitRepair`).
        public var threeBitRepairs = true
        /// Repair one bit of an address/parity reply from a known aircraft (see
        /// `RepairGate.addressParityRepair`).
        public var addressParityRepairs = true

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
    private let sequenceSlicer: SequenceSlicer
    private var noise = NoiseFloorEstimator()
    private var validator: FrameValidator

    /// Samples converted per pass; the buffer holds this plus the kept tail.
    private static let chunkSamples = 1 << 16
    private let capacity: Int
    private let magnitudes: UnsafeMutablePointer<UInt16>
    /// The raw samples behind `magnitudes`, index for index, for `canceller`.
    private let raw: UnsafeMutableRawPointer
    private let canceller: ReplyCanceller
    /// Samples kept before the next candidate start: a reply that began up to one long
    /// reply before a frame and was buried by it can still be recovered (`canceller`).
    private let lookback: Int
    /// Samples that must follow a candidate start before it is examined: its own reply
    /// span, plus one more for a reply that starts inside it and runs past its end.
    private let lookahead: Int
    /// Frames waiting to be emitted in time order: one recovered from under a later frame
    /// may start before frames already found.
    private var pending = PendingFrames()
    /// Recently accepted frames, to drop the same reply found again nearby.
    private var recent = RecentFrames()
    /// Recent starts whose preamble passed but whose bits did not: where a reply buried by
    /// a later, stronger frame began (see `searchWithout`).
    private var failedStarts = RecentStarts()
    /// |score| of each bit of the reply being examined.
    private let confidence: UnsafeMutablePointer<Int32>
    private let repairGate: RepairGate
    private var seen = SeenAddresses()
    private var near = NearAddresses()
    private var interrogators = InterrogatorCodes()
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
    /// The end of the last accepted frame: weakly checked frames are not taken from inside
    /// it (see `PreambleDetector.looksLikeDataWindow`).
    private var insideFrameUntil = 0
    /// The gate threshold inside that frame: a reply starting there is only recoverable
    /// when it is clearly stronger than the frame it overlaps, whose own Manchester data
    /// otherwise passes the gate at almost every sample (the main cost in busy traffic).
    private var insideGateThreshold: Int32 = 0
    /// Set by `examine` when it left a candidate to the next start, which fits better.
    private var deferred = false
    /// The frame `examine` validated last.
    private var found = Frame(bits: ModeSBits(bitCount: 56), address: 0)
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
        self.sequenceSlicer = SequenceSlicer(kernels: kernels)
        self.validator = FrameValidator(allowTwoBitCorrection: options.allowTwoBitCorrection)
        // The kept tail is at most the lookback, one noise window (positions waiting for
        // their floor) and the lookahead; padding of the lookahead lets the last positions
        // be read past the end of the stream without checks.
        self.lookback = kernels.replySpan
        self.lookahead = 2 * kernels.replySpan
        self.capacity = Self.chunkSamples + NoiseFloorEstimator.windowLength + lookback + 2 * lookahead
        self.magnitudes = .allocate(capacity: capacity)
        self.magnitudes.initialize(repeating: 0, count: capacity)
        self.raw = .allocate(byteCount: capacity * format.bytesPerSample, alignment: 8)
        self.raw.initializeMemory(as: UInt8.self, repeating: 0, count: capacity * format.bytesPerSample)
        self.canceller = ReplyCanceller(format: format, kernels: kernels,
                                        maximumWindow: lookback + 2 * kernels.replySpan)
        self.confidence = .allocate(capacity: ReplyKernels.maximumBits)
        self.confidence.initialize(repeating: 0, count: ReplyKernels.maximumBits)
        self.repairGate = RepairGate(rankLimit: options.repairRankLimit,
                                     knownAddressRankLimit: options.knownAddressRankLimit,
                                     allowTwoBits: options.allowTwoBitCorrection)
        self.ticksPerSample = UInt64(12_000_000 / sampleRate.hertz)
    }

    deinit {
        magnitudes.deallocate()
        raw.deallocate()
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
        pending.release(before: Int.max, emit: emit)
        finished = true
        return carryCount
    }

    /// Converts `count` whole samples and searches whenever the buffer fills up.
    private func append(_ source: UnsafeRawPointer, count: Int, emit: (Frame) -> Void) {
        var done = 0
        while done < count {
            let room = capacity - lookahead - filled
            if room <= 0 {
                search(final: false, emit: emit)
                continue
            }
            let n = min(room, count - done)
            let size = format.bytesPerSample
            if options.cancelOverlaps {
                (raw + filled * size).copyMemory(from: source + done * size, byteCount: n * size)
            }
            converter.convert(source + done * size, count: n, into: magnitudes + filled)
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
            (magnitudes + filled).update(repeating: 0, count: lookahead)
            let size = format.bytesPerSample
            (raw + filled * size).initializeMemory(as: UInt8.self, repeating: format == .cu8 ? 128 : 0,
                                                   count: lookahead * size)
            limit = end
        } else {
            limit = min(end - lookahead, noise.completedWindows * NoiseFloorEstimator.windowLength)
        }
        if nextCandidate < limit {
            switch sampleRate {
            case .twoPointFourMega: scan(Gate2400.self, upTo: limit, emit: emit)
            case .twoMega: scan(Gate2000.self, upTo: limit, emit: emit)
            }
        }
        // No frame found from here on can start before nextCandidate − lookback.
        pending.release(before: nextCandidate - lookback, emit: emit)
        // Keep everything from the lookback before the next unexamined position.
        let keepFrom = min(max(nextCandidate - lookback, bufferStart), end)
        let kept = end - keepFrom
        if keepFrom > bufferStart, kept > 0 {
            magnitudes.update(from: magnitudes + (keepFrom - bufferStart), count: kept)
            let size = format.bytesPerSample
            if options.cancelOverlaps { raw.copyMemory(from: raw + (keepFrom - bufferStart) * size, byteCount: kept * size) }
        }
        bufferStart = keepFrom
        filled = kept
    }

    /// The hot loop: gate every position in [nextCandidate, limit), examine the survivors.
    @inline(__always)
    private func scan<Gate: CandidateGate>(_ gate: Gate.Type, upTo limit: Int, emit: (Frame) -> Void) {
        var position = nextCandidate
        // The next start must be examined whatever the gate says (see `deferred`).
        var forced = false
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
                if !forced, !Gate.passes(base + position, threshold: current) {
                    position += 1
                    continue
                }
                forced = false
                if let phase = examine(base + position, at: position, floor: floor, inResidual: false) {
                    position = accept(at: position, phase: phase, floor: floor, emit: emit)
                } else {
                    position += 1
                    if deferred {
                        deferred = false
                        forced = true
                        scalarUntil = position + 1
                    }
                }
            }
        }
        nextCandidate = position
    }

    /// Scores the preamble at `samples` (stream position `position`), slices its best
    /// phases and validates them. On success the frame is left in `found` and its phase
    /// returned. `inResidual`: the samples are what is left once a frame was cancelled,
    /// where that frame's inside is no longer off limits.
    private func examine(_ samples: UnsafePointer<UInt16>, at position: Int, floor: UInt32,
                         inResidual: Bool) -> Int? {
        statistics.candidates += 1
        let phases = detector.phases(at: samples, floor: floor)
        // A further phase is worth slicing only when its preamble fits nearly as well as
        // the best one (within a quarter); otherwise it is just the same noise again.
        var tries = 1
        // The same beneath a cancelled frame, at the few starts `searchWithout` picked:
        // slicing only the best phase there recovered about 25 fewer replies of the busy
        // bench recording, for no measurable saving.
        while tries < min(phases.count, options.maximumPhases),
              4 * Int64(phases.score(tries)) >= 3 * Int64(phases.score(0)) {
            tries += 1
        }
        guard phases.count > 0 else { return nil }
        if !inResidual, sampleRate == .twoPointFourMega {
            // When the next start fits clearly better (by an eighth), this one is most
            // likely the same reply a sample early: leave it to the next start, which
            // `scan` then examines whatever its gate says (busy sky: a tenth fewer slices,
            // no frame lost). Not at 2.0 MS/s, where a reply half a sample off fits the
            // later start's preamble better but slices only from the earlier one.
            let next = detector.phases(at: samples + 1, floor: floor)
            if next.count > 0, Int64(next.score(0)) * 16 > Int64(phases.score(0)) * 18 {
                deferred = true
                return nil
            }
        }
        let time = Double(position) / Double(sampleRate.hertz)
        // Plain decisions at the best phases first, then the best two phases again with
        // each kind of decision feedback (see `BitSlicer`).
        // The pulse amplitude at the best phase, which several attempts below need.
        let bestAmplitude = detector.pulseAmplitude(at: samples, phase: phases.index(0))
        var feedbackAttempts = options.feedbackRetry ? (tries > 1 ? 4 : 2) : 0
        if feedbackAttempts > 0, bestAmplitude >= 5 * Double(floor),
           detector.looksLikeDataWindow(at: samples, phase: phases.index(0), floor: floor) {
            // A strong window that looks like the inside of another reply: feedback would
            // only slice that reply's data again (busy sky: a tenth fewer slices, no frame
            // lost). Its plain decisions still get their chance.
            feedbackAttempts = 0
        }
        // The plain decisions at the best phase, for `coherentAttempt`.
        var firstSlice: ModeSBits?
        // Last, the best phase as the most likely sequence (see `SequenceSlicer`).
        let sequenceAttempt = options.sequenceRetry && feedbackAttempts > 0 ? tries + feedbackAttempts : -1
        for attempt in 0..<(tries + feedbackAttempts + (sequenceAttempt >= 0 ? 1 : 0)) {
            let feedback = attempt >= tries
            let rank = attempt == sequenceAttempt ? 0 : feedback ? (attempt - tries) / 2 : attempt
            let phase = phases.index(rank)
            // For the sequence attempt, the amplitude feedback's confidences stand in.
            let amplitude: Int32
            if !feedback {
                amplitude = 0
            } else if (attempt - tries) % 2 == 0 || attempt == sequenceAttempt {
                let pulses = rank == 0 ? bestAmplitude : detector.pulseAmplitude(at: samples, phase: phase)
                amplitude = max(1, Int32(pulses - Double(floor)))
            } else {
                amplitude = BitSlicer.smearFeedback
            }
            // The sequence is worth its cost where the plain slice at least gave a format a
            // transponder sends, and at 2.4 MS/s for weak replies only (under 4 floors above
            // the floor; 6 found one frame more on the busy bench recording for 1% more
            // time): stronger ones are decided well bit by bit there, while at 2.0 MS/s
            // half-sample offsets blur the bits of strong replies too.
            if attempt == sequenceAttempt, firstSlice == nil
                || (sampleRate == .twoPointFourMega && amplitude >= 4 * Int32(clamping: floor)) { continue }
            statistics.attempts += 1
            let sliced = attempt == sequenceAttempt
                ? sequenceSlicer.slice(samples, phase: phase, level: Float(amplitude), floor: Float(floor))
                : slicer.slice(samples, phase: phase, feedback: amplitude)
            // A DF11's interrogator code cannot be checked, and a sequence decision can
            // turn a code into 0 as firmly as the rest: no DF11 from it.
            guard var bits = sliced, attempt != sequenceAttempt || bits.downlinkFormat != 11 else { continue }
            if attempt == 0 { firstSlice = bits }
            let screening = repairGate.screen(bits)
            if screening == .reject {
                // Beyond the one- and two-bit repairs: three bits, for known aircraft only.
                guard options.threeBitRepairs, bits.bitCount == 112,
                      bits.downlinkFormat == 17 || bits.downlinkFormat == 18,
                      isKnown(UInt32(bits.field(9, 32)), at: time),
                      inResidual || position >= insideFrameUntil else { continue }
                slicer.confidence(samples, phase: phase, feedback: amplitude, into: confidence)
                guard let repaired = repairGate.threeBitRepair(bits, confidence: confidence),
                      isKnown(UInt32(repaired.field(9, 32)), at: time),
                      !detector.looksLikeDataWindow(at: samples, phase: phase, floor: floor),
                      !detector.isLopsided(at: samples, phase: phase, floor: floor) else { continue }
                found = Frame(bits: repaired, address: UInt32(repaired.field(9, 32)), correctedBits: 3)
                return phase
            }
            if screening != .clean {
                // Weakly checked (address parity, repair, interrogator code): never from
                // the inside of a reply just decoded, nor from what looks like one, nor
                // from a window half on another reply's preamble.
                guard inResidual || position >= insideFrameUntil,
                      !detector.looksLikeDataWindow(at: samples, phase: phase, floor: floor),
                      !detector.isLopsided(at: samples, phase: phase, floor: floor) else { continue }
            }
            if screening == .addressParity, !seen.mayContain(CRC.syndrome(of: bits)) {
                // The validator would refuse an address it never confirmed, unless one
                // weak bit is wrong (see `RepairGate.addressParityRepair`).
                guard options.addressParityRepairs, near.mayContain(CRC.syndrome(of: bits)),
                      inResidual || position >= insideFrameUntil else { continue }
                slicer.confidence(samples, phase: phase, feedback: amplitude, into: confidence)
                guard let number = repairGate.addressParityRepair(bits, confidence: confidence, isKnown: {
                    seen.mayContain($0) && isKnown($0, at: time)
                }) else { continue }
                bits.flipBit(number)
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
                guard !followedClosely(samples, phase: phase, floor: floor) else { continue }
                if CRC.syndrome(of: bits) & 0x7F != 0 {
                    guard nonZeroCodeBelievable(bits, samples, phase: phase, floor: floor) else { continue }
                }
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
                    guard isKnown(address, at: time) else { continue }
                }
            }
            guard let validated = validator.validate(bits, time: time) else { continue }
            if validated.downlinkFormat == 11, options.confirmInterrogatorCodes {
                // The code is the remainder of the parity (the validator accepted it as one).
                let code = Int(CRC.syndrome(of: bits) & 0x7F)
                if code != 0, !interrogators.vouch(code, address: validated.address, time: time) { continue }
            }
            found = validated
            return phase
        }
        if options.coherentRetry, options.cancelOverlaps, !inResidual, position >= insideFrameUntil,
           let plain = firstSlice, plain.downlinkFormat == 17 || plain.downlinkFormat == 18,
           let phase = coherentAttempt(samples, plain, at: position, phase: phases.index(0),
                                       level: bestAmplitude - Double(floor), floor: floor, time: time) {
            return phase
        }
        if !inResidual { failedStarts.append(position, score: phases.score(0)) }
        return nil
    }

    /// The last try at a candidate whose every magnitude slice failed: a strong DF17/18,
    /// sliced again on its own carrier (see `ReplyCanceller.coherentBits`). Only a clean
    /// CRC, or a repair the `RepairGate` admits on the coherent confidences, is accepted.
    /// `level`: the pulse amplitude at `phase` above the floor.
    private func coherentAttempt(_ samples: UnsafePointer<UInt16>, _ plain: ModeSBits, at position: Int, phase: Int,
                                 level: Double, floor: UInt32, time: Double) -> Int? {
        // Below three floors above the floor, noise rather than an overlap breaks the bits.
        guard level >= 3 * Double(floor),
              !detector.looksLikeDataWindow(at: samples, phase: phase, floor: floor),
              !detector.isLopsided(at: samples, phase: phase, floor: floor) else { return nil }
        // Only the stronger of two overlapping replies: together they reach at most twice
        // its level. Beneath a stronger one, its carrier cannot be fitted.
        let limit = Double(floor) + 2 * level
        if limit < 65535 {
            let threshold = UInt16(limit)
            for index in 0..<kernels.span(bitCount: plain.bitCount) where samples[index] > threshold { return nil }
        }
        statistics.coherentAttempts += 1
        let raw = UnsafeRawPointer(self.raw + (position - bufferStart) * format.bytesPerSample)
        guard let bits = canceller.coherentBits(raw: raw, offsetTenths: kernels.phaseOffsets[phase], bits: plain,
                                                kernels: slicer.kernels(phase: phase), confidence: confidence)
        else { return nil }
        switch repairGate.screen(bits) {
        case .clean: break
        case .needsJudgement:
            switch repairGate.judge(bits, confidence: confidence) {
            case .admit: break
            case .reject: return nil
            case .admitIfKnown(let address): guard isKnown(address, at: time) else { return nil }
            }
        case .addressParity, .reject: return nil
        }
        guard let validated = validator.validate(bits, time: time) else { return nil }
        found = validated
        statistics.coherentFrames += 1
        return phase
    }

    /// Whether `address` was confirmed by a clean CRC recently (without touching the
    /// validator's own filter).
    private func isKnown(_ address: UInt32, at time: Double) -> Bool {
        var filter = validator.icaoFilter
        return filter.contains(address, at: time)
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

    /// The stricter checks for a DF11 with a non-zero interrogator code (a reply to a ground
    /// station): noise or an overlap flips an acquisition squitter's code 0 into one of the
    /// station codes that `InterrogatorCodes` has confirmed as easily as into any other.
    /// - The reply must stand at least twice the floor above the floor: weaker replies have
    ///   so many near-zero bit scores that one of the 7 code bits is a coin toss too often.
    /// - Fewer than two of its last 12 bits may have their empty chip at 9/16 of the pulse
    ///   level (the general check allows 3/4, for all formats): a reply half as strong
    ///   running across the code bits reaches that, band-limited leakage of the reply's own
    ///   pulses into one empty chip now and then does too, into two rarely.
    private func nonZeroCodeBelievable(_ bits: ModeSBits, _ samples: UnsafePointer<UInt16>, phase: Int,
                                       floor: UInt32) -> Bool {
        let level = max(0, detector.pulseAmplitude(at: samples, phase: phase) - Double(floor))
        guard level >= 2 * Double(floor) else { return false }
        let offLimit = Double(floor) + 9.0 / 16.0 * level
        return slicer.loudOffChips(bits, samples, phase: phase, limit: offLimit, from: bits.bitCount - 12) < 2
    }

    /// Whether a sample in the 8 (about 3 µs) right after a DF11 is louder than the reply's
    /// own pulses: the preamble of a stronger reply starting during the reply's last bits
    /// or just after them, whose first pulses (or their band-limited edges) land on the
    /// interrogator-code bits without looking like an overlap inside the reply itself.
    private func followedClosely(_ samples: UnsafePointer<UInt16>, phase: Int, floor: UInt32) -> Bool {
        let level = max(0, detector.pulseAmplitude(at: samples, phase: phase) - Double(floor))
        let limit = Double(floor) + level
        guard limit < 65535 else { return false }
        let threshold = UInt16(limit)
        // The buffer always holds a long reply's span past a start, so this stays inside.
        let end = kernels.span(bitCount: 56)
        for index in end..<(end + 8) where samples[index] > threshold { return true }
        return false
    }

    /// Records the frame `examine` found at `position` and, when its empty chips show
    /// another signal, looks for that signal with the frame cancelled. Returns where to
    /// resume the search.
    private func accept(at position: Int, phase: Int, floor: UInt32, emit: (Frame) -> Void) -> Int {
        let samples = UnsafePointer(magnitudes + (position - bufferStart))
        let bits = found.bits
        record(found, at: position, phase: phase, samples: samples)
        let span = kernels.span(bitCount: bits.bitCount)
        insideFrameUntil = max(insideFrameUntil, position + span)
        // The gate measures 24 × (mean pulse − mean quiet); require that difference to
        // exceed `insideStrengthSixteenths`/16 of this frame's pulse level above the floor.
        let level = max(0, detector.pulseMean(at: samples, phase: phase) - Double(floor))
        insideGateThreshold = Int32(min(Double(Int32.max / 2), 24 * level * Double(options.insideStrengthSixteenths) / 16))
        if options.cancelOverlaps {
            let sides = signalsRunningPast(bits, samples, floor: floor, level: level, before: position - bufferStart)
            if sides.before || sides.after { searchWithout(bits, at: position, phase: phase, floor: floor, sides: sides) }
        }
        pending.release(before: position - lookback, emit: emit)
        return position + (options.searchInsideFrames ? kernels.preambleSpan : span)
    }

    /// Whether another reply runs on past the start or the end of the frame at `samples`:
    /// a sample louder than the limit among the 12 (5 µs) right before its first pulse, or
    /// right after its last chip. The limit is an eighth of the frame's level above the
    /// floor (a reply 18 dB weaker) and at least 2.5 floors above it (a reply that could be
    /// demodulated on its own): noise alone gets there in about one sample in a thousand.
    /// (1.5 floors cancelled a third more frames for no more replies recovered.) (A reply wholly inside a
    /// longer frame is rare enough that looking for one, in the frame's long gaps, cost more
    /// than it found.) `before`: how many samples precede `samples` in the buffer.
    private func signalsRunningPast(_ bits: ModeSBits, _ samples: UnsafePointer<UInt16>, floor: UInt32,
                                    level: Double, before: Int) -> (before: Bool, after: Bool) {
        let limit = UInt16(min(65535, Double(floor) + max(2.5 * Double(floor), level / 8)))
        let span = kernels.span(bitCount: bits.bitCount)
        var sides = (before: false, after: false)
        for index in -min(12, before)..<0 where samples[index] > limit {
            sides.before = true
            break
        }
        for index in span..<(span + 12) where samples[index] > limit {
            sides.after = true
            break
        }
        return sides
    }

    /// Subtracts the frame `bits` found at `position` from the IQ samples and searches the
    /// residual for a reply that starts up to one long reply before it (`sides.before`) or
    /// inside it (`sides.after`).
    private func searchWithout(_ bits: ModeSBits, at position: Int, phase: Int, floor: UInt32,
                               sides: (before: Bool, after: Bool)) {
        let span = kernels.span(bitCount: bits.bitCount)
        let windowStart = max(position - lookback, bufferStart)
        let windowEnd = min(position + span + kernels.replySpan, bufferStart + filled + lookahead)
        let residual = canceller.residual(raw: raw + (windowStart - bufferStart) * format.bytesPerSample,
                                          magnitudes: magnitudes + (windowStart - bufferStart),
                                          count: windowEnd - windowStart, replyStart: position - windowStart,
                                          offsetTenths: kernels.phaseOffsets[phase], bits: bits)
        statistics.cancellations += 1
        let threshold = Int32(truncatingIfNeeded: (Int64(floor) * 24 * Int64(options.gateSixteenths)) >> 4)
        // The buried reply's preamble is clean in the residual and outscores the windows
        // of its own data (whose quiet chips are partly on), which pass the gate at most
        // starts. So only the few best-scoring starts are examined, each a preamble's
        // length from the others: slicing every start that passes would cost more than
        // the whole search of the stream around it.
        var best = BestStarts()
        // Up to a preamble before the frame the residual is the stream itself, whose
        // preambles were scored already: only the starts that passed and then failed are
        // worth another try. From there on the residual is searched afresh.
        var fresh = position
        if sides.before {
            fresh = max(windowStart, position - 1 - PreambleDetector.samplesRead)
            failedStarts.forEach(from: windowStart, before: fresh) { start, score in
                best.offer(start, score: score, separation: kernels.preambleSpan)
            }
        }
        let last = sides.after ? min(position + span, windowEnd - kernels.replySpan) : position
        var start = fresh
        while start < last {
            let samples = residual + (start - windowStart)
            if start + 8 <= last, !anyOfEightPass(samples, threshold: threshold) {
                start += 8
                continue
            }
            defer { start += 1 }
            guard start != position, gatePasses(samples, threshold: threshold) else { continue }
            let phases = detector.phases(at: samples, floor: floor)
            if phases.count > 0 { best.offer(start, score: phases.score(0), separation: kernels.preambleSpan) }
        }
        for rank in 0..<best.count {
            let start = best.start(rank)
            let samples = residual + (start - windowStart)
            guard let phase = examine(samples, at: start, floor: floor, inResidual: true) else { continue }
            if record(found, at: start, phase: phase, samples: samples) { statistics.recoveredFromOverlaps += 1 }
        }
    }

    @inline(__always)
    private func anyOfEightPass(_ samples: UnsafePointer<UInt16>, threshold: Int32) -> Bool {
        switch sampleRate {
        case .twoPointFourMega: Gate2400.anyOfEightPasses(samples, threshold: threshold)
        case .twoMega: Gate2000.anyOfEightPasses(samples, threshold: threshold)
        }
    }

    @inline(__always)
    private func gatePasses(_ samples: UnsafePointer<UInt16>, threshold: Int32) -> Bool {
        switch sampleRate {
        case .twoPointFourMega: Gate2400.passes(samples, threshold: threshold)
        case .twoMega: Gate2000.passes(samples, threshold: threshold)
        }
    }

    /// Stamps and counts a validated frame and queues it for emission, unless it repeats a
    /// frame accepted nearby. Returns whether it was new.
    @discardableResult
    private func record(_ validated: Frame, at position: Int, phase: Int, samples: UnsafePointer<UInt16>) -> Bool {
        var frame = validated
        let offset = kernels.phaseOffsets[phase]
        frame.timestamp = UInt64(position) * ticksPerSample + UInt64(offset) * ticksPerSample / 10
        frame.signalLevel = Decibels.fromAmplitude(detector.pulseAmplitude(at: samples, phase: phase),
                                                   fullScale: MagnitudeConverter.fullScale)
        let span = kernels.span(bitCount: frame.bits.bitCount)
        guard recent.insert(frame.bits, at: position, within: span) else {
            statistics.duplicates += 1
            return false
        }
        switch frame.downlinkFormat {
        case 11, 17, 18:
            if seen.insert(frame.address) { near.insert(frame.address) }
        default: break
        }
        statistics.framesPerFormat[frame.downlinkFormat] += 1
        if frame.correctedBits > 0 { statistics.correctedFrames += 1 }
        pending.append(frame, at: position)
        return true
    }
}
