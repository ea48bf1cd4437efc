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
    /// The sample layout of the input.
    public let format: SampleFormat
    /// The sample rate of the input.
    public let sampleRate: SampleRate
    /// What the options were when the demodulator was made.
    public let options: Options
    /// Counters so far.
    public private(set) var statistics = DemodulatorStatistics()

    /// Turns input samples into magnitudes.
    private let converter: MagnitudeConverter
    /// The reply model at this sample rate: spans, phases and per-bit weights.
    private let kernels: ReplyKernels
    /// Scores preambles and measures pulse levels.
    private let detector: PreambleDetector
    /// Decides bits one by one (plain and feedback attempts).
    private let slicer: BitSlicer
    /// Decides bits as a sequence (the last attempt at weak replies).
    private let sequenceSlicer: SequenceSlicer
    /// Decides bits against the reply's own fitted channel (after every other slice).
    private let channelFitSlicer: ChannelFitSlicer
    /// The interrogator codes each aircraft has answered with (rules 6 and 7b).
    private var addressCodes = AddressCodes()
    /// The noise floor per window of samples, which every threshold scales with.
    private var noise = NoiseFloorEstimator()
    /// The CRC check and repair, with the addresses confirmed so far.
    private var validator: FrameValidator
    /// The ordered rules that turn a slice into a frame.
    private let policy: AcceptancePolicy
    /// Measurements of other signals on top of a reply, for `policy`.
    private let interference: InterferenceChecks
    /// Reads which bits of a reply at the rails the clipping decides.
    private let clippedBits: ClippedBits
    /// Cancels frames and finds the replies they buried (used with `cancelOverlaps`).
    private let recovery: OverlapRecovery
    /// Decides a DF11's code again with the reply that follows it closely cancelled.
    private let followerCheck: FollowerCheck

    /// Samples converted per pass; the buffer holds this plus the kept tail.
    private static let chunkSamples = 1 << 16
    /// Magnitudes (and raw samples) the buffers hold.
    private let capacity: Int
    /// The stream's magnitudes from `bufferStart` on.
    private let magnitudes: UnsafeMutablePointer<UInt16>
    /// The raw samples behind `magnitudes`, index for index, for `canceller`.
    private let raw: UnsafeMutableRawPointer
    /// Subtracts a decoded reply from the raw samples; also decides bits coherently.
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
    /// a later, stronger frame began (see `OverlapRecovery.buriedStarts`).
    private var failedStarts = RecentStarts()
    /// |score| of each bit of the reply being examined.
    private let confidence: UnsafeMutablePointer<Int32>
    /// Whether a reply needing repair may be repaired at all.
    private let repairGate: RepairGate
    /// Addresses of the DF11/17/18 frames found, which address/parity replies may name.
    private var seen = SeenAddresses()
    /// Parities one wrong bit away from a seen address.
    private var near = NearAddresses()
    /// What each aircraft last reported in its extended squitters (rules 2c and 5b).
    private var squitterReports = SquitterReports()
    /// Interrogator codes confirmed by more than one aircraft.
    private var interrogators = InterrogatorCodes()
    /// The last slices that read an all-call reply as code 0 (rule 7f).
    private var codeZeroReadings = CodeZeroReadings()
    /// Absolute index of `magnitudes[0]`.
    private var bufferStart = 0
    /// Valid magnitudes in the buffer.
    private var filled = 0
    /// Absolute index of the next candidate start to examine.
    private var nextCandidate = 0
    /// Bytes of an incomplete sample carried to the next block.
    private var carry: (UInt64, UInt64) = (0, 0)
    /// How many bytes of `carry` are valid.
    private var carryCount = 0
    /// Whether `finish` was called.
    private var finished = false
    /// The end of the last accepted frame: weakly checked frames are not taken from inside
    /// it (see `PreambleDetector.looksLikeDataWindow`).
    private var insideFrameUntil = 0
    /// The gate threshold inside that frame: a reply starting there is only recoverable
    /// when it is clearly stronger than the frame it overlaps, whose own Manchester data
    /// otherwise passes the gate at almost every sample (the main cost in busy traffic).
    private var insideGateThreshold: Int32 = 0
    /// While the residual of a cancelled frame is searched, the stream positions that frame
    /// spanned (empty otherwise).
    private var cancelledFrame = 0..<0
    /// The preamble scores at the position after the last one examined in the signal (not a
    /// residual): at 2.4 MS/s each examination scores its successor to decide whether to
    /// defer to it, and that successor is usually the next position to pass the gate, so
    /// its scores are kept instead of computed twice. Valid within one `search` only.
    private var successorPhases: (position: Int, floor: UInt32, phases: PreambleDetector.Phases)?
    /// The usable slices of a squitter (DF17/18) and their phases that the current
    /// examination of a weak reply gave: where the channel fit starts once more when its
    /// first two starts found nothing (see `examine`). Emptied, never shrunk, per start.
    private var squitterSlices: [(bits: ModeSBits, phase: Int)] = []
    /// 12 MHz timestamp ticks per sample.
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
        self.channelFitSlicer = ChannelFitSlicer(kernels: kernels)
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
        self.policy = AcceptancePolicy(options: options, sampleRate: sampleRate)
        self.interference = InterferenceChecks(kernels: kernels, detector: detector, slicer: slicer)
        clippedBits = ClippedBits(kernels: kernels, format: format)
        self.recovery = OverlapRecovery(kernels: kernels, detector: detector, canceller: canceller,
                                        sampleRate: sampleRate, gateSixteenths: options.gateSixteenths,
                                        gateQuietSixteenths: options.gateQuietSixteenths)
        self.ticksPerSample = UInt64(12_000_000 / sampleRate.hertz)
        followerCheck = FollowerCheck(format: format, kernels: kernels, slicer: slicer, repairGate: repairGate)
    }

    deinit {
        magnitudes.deallocate()
        raw.deallocate()
        confidence.deallocate()
    }

    /// Bytes of an incomplete sample held over for the next block (0 after a whole sample).
    public var carriedBytes: Int { carryCount }

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

    /// Continues the stream after `count` samples were lost (a receiver that fell behind
    /// dropped them), emitting what is completed. What came before the gap is examined to
    /// its end as if the stream stopped there, and the search starts afresh after it, as at
    /// the start of a stream: a reply cut by the gap must not be spliced from the samples on
    /// either side of it. Timestamps go on counting the lost samples, so they stay on the
    /// receiver's sample clock (multilateration compares them between receivers).
    public func resume(afterDropping count: Int, emit: (Frame) -> Void) {
        precondition(!finished, "resume after finish")
        guard count > 0 else { return }
        let end = bufferStart + filled
        // Half a sample before the gap cannot be completed by the bytes after it.
        carryCount = 0
        noise.finish()
        search(final: true, emit: emit)
        pending.release(before: Int.max, emit: emit)
        let restart = end + count
        bufferStart = restart
        filled = 0
        nextCandidate = restart
        noise.restart(at: restart)
        statistics.droppedSamples += count
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
        // The final search pads with silence that later samples may replace.
        successorPhases = nil
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
        // The next start must be examined whatever the gate says (see `Examination.deferToNext`).
        var forced = false
        while position < limit {
            // The floor is constant within a noise window: scan window by window.
            let windowEnd = min(limit, (position / NoiseFloorEstimator.windowLength + 1) * NoiseFloorEstimator.windowLength)
            let floor = noise.floor(at: position)
            let limits = GateLimits(floor: floor, contrastSixteenths: options.gateSixteenths,
                                    quietSixteenths: options.gateQuietSixteenths)
            let threshold = limits.threshold
            let base = magnitudes - bufferStart
            var scalarUntil = position
            // The last eight starts tested at once, from `blockStart`: bit k set when start
            // blockStart + k passed there.
            var blockStart = position - 8
            var passing: UInt8 = 0
            while position < windowEnd {
                // Inside a frame just decoded, only a much stronger reply can still be
                // recovered, so the gate asks for more (see `insideGateThreshold`).
                let inside = position < insideFrameUntil
                let current = inside ? max(threshold, insideGateThreshold) : threshold
                // Eight starts at a time while all eight fail (the common case in noise).
                if position + 8 <= windowEnd, position >= scalarUntil {
                    let blockThreshold = position + 8 <= insideFrameUntil || !inside ? current : threshold
                    passing = Gate.passingOfEight(base + position, limits.with(threshold: blockThreshold))
                    if passing == 0 {
                        position += 8
                        continue
                    }
                    blockStart = position
                    scalarUntil = position + 8
                }
                // A start that failed with the block fails on its own too (its threshold is
                // never lower): go straight to the next one that passed, or past the block.
                if !forced, position - blockStart < 8 {
                    let rest = passing >> UInt8(truncatingIfNeeded: position - blockStart)
                    if rest & 1 == 0 {
                        position = rest == 0 ? blockStart + 8 : position + rest.trailingZeroBitCount
                        continue
                    }
                }
                // One that passed is tested on its own: the block's threshold is the lower
                // where the block reaches past the end of a frame just decoded.
                if !forced, !Gate.passes(base + position, limits.with(threshold: current)) {
                    position += 1
                    continue
                }
                forced = false
                switch examine(base + position, at: position, floor: floor, inResidual: false) {
                case .frame(let frame, let phase):
                    position = accept(frame, at: position, phase: phase, floor: floor, emit: emit)
                case .deferToNext:
                    position += 1
                    forced = true
                    scalarUntil = position + 1
                case .none:
                    position += 1
                }
            }
        }
        nextCandidate = position
    }

    /// One candidate start under examination: its samples and what the acceptance rules
    /// need to know about it.
    private struct Candidate {
        /// The magnitudes from the candidate start on (stream or residual).
        let samples: UnsafePointer<UInt16>
        /// The stream position of the start.
        let position: Int
        /// The noise floor there.
        let floor: UInt32
        /// Where it lies relative to frames already found.
        let place: AcceptancePolicy.Place
        /// The start in seconds, for the address filters' expiry.
        let time: Double
    }

    /// Scores the preamble at `samples` (stream position `position`) and slices it by the
    /// attempts of its `SlicePlan` until the `AcceptancePolicy` admits one; a strong DF17/18
    /// whose every attempt failed is finally decided coherently. `inResidual`: the samples
    /// are what is left once a frame was cancelled, where that frame's inside is no longer
    /// off limits.
    private func examine(_ samples: UnsafePointer<UInt16>, at position: Int, floor: UInt32,
                         inResidual: Bool) -> Examination {
        statistics.candidates += 1
        let phases: PreambleDetector.Phases
        if !inResidual, let kept = successorPhases, kept.position == position, kept.floor == floor {
            phases = kept.phases
        } else {
            phases = detector.phases(at: samples, floor: floor)
        }
        guard phases.count > 0 else { return .none }
        if !inResidual, sampleRate == .twoPointFourMega {
            let next = detector.phases(at: samples + 1, floor: floor)
            successorPhases = (position + 1, floor, next)
            if AcceptancePolicy.defersToNextStart(score: phases.score(0), nextScore: next.count > 0 ? next.score(0) : nil) {
                return .deferToNext
            }
        }
        // The shadow of a stronger preamble 3.5 µs on is not sliced, but stays a failed start
        // for the search beneath that reply.
        if !inResidual, shadowsStrongerPreamble(samples, score: phases.score(0), floor: floor) {
            statistics.shadowStarts += 1
            failedStarts.append(position, score: phases.score(0))
            return .none
        }
        // The pulse amplitude at the best phase, which the plan and several attempts need.
        let bestAmplitude = detector.pulseAmplitude(at: samples, phase: phases.index(0))
        // A window that falls quiet after 27 µs (a Mode A/C reply's pulses) is not sliced
        // either, and stays a failed start the same way.
        if AcceptancePolicy.tailTooQuiet(
            loudBits: { slicer.loudBits(samples, phase: phases.index(0), limit: $0,
                                        bits: AcceptancePolicy.tailBits, enough: $1) },
            amplitude: bestAmplitude, floor: floor) {
            statistics.quietTailStarts += 1
            if !inResidual { failedStarts.append(position, score: phases.score(0)) }
            return .none
        }
        let candidate = Candidate(samples: samples, position: position, floor: floor,
                                  place: .init(inResidual: inResidual, insideFrame: position < insideFrameUntil),
                                  time: Double(position) / Double(sampleRate.hertz))
        let bestLevel = max(1, Int32(bestAmplitude - Double(floor)))
        let plan = SlicePlan(
            plainRanks: SlicePlan.plainRanks(count: phases.count, maximum: options.maximumPhases, score: phases.score),
            feedbackRetry: options.feedbackRetry, sequenceRetry: options.sequenceRetry,
            looksLikeOtherReplysData: options.feedbackRetry && bestAmplitude >= 5 * Double(floor)
                && detector.looksLikeDataWindow(at: samples, phase: phases.index(0), floor: floor),
            sequenceWorthwhile: SlicePlan.sequenceWorthwhile(sampleRate: sampleRate, level: bestLevel, floor: floor),
            sequencePhases: SlicePlan.sequencePhases(sampleRate: sampleRate))
        // The plain decisions at the best phase, for the sequence and coherent attempts.
        var firstSlice: ModeSBits?
        // Where the channel fit starts: the last sequence's bits at its phase, else the
        // first usable slice at the best phase.
        var tentative: ModeSBits?
        var fitPhase = phases.index(0)
        // The first usable slice at its own phase, where the fit starts again when it found
        // nothing from `tentative`.
        var firstUsable: (bits: ModeSBits, phase: Int)?
        // A weak reply, where the fit has more starts (below).
        let weak = SlicePlan.isWeak(level: bestLevel, floor: floor)
        if !squitterSlices.isEmpty { squitterSlices.removeAll(keepingCapacity: true) }
        for index in 0..<plan.count {
            let attempt = plan[index]
            // The sequence is only worth its cost where the plain slice at least gave a
            // format a transponder sends.
            if attempt.slicer == .sequence, firstSlice == nil { continue }
            let phase = phases.index(attempt.rank)
            let level = attempt.slicer == .amplitudeFeedback && attempt.rank > 0
                ? max(1, Int32(detector.pulseAmplitude(at: samples, phase: phase) - Double(floor))) : bestLevel
            let feedback = attempt.feedback(level: level)
            statistics.attempts += 1
            let sliced = attempt.slicer == .sequence
                ? sequenceSlicer.slice(samples, phase: phase, level: Float(feedback), floor: Float(floor))
                : slicer.slice(samples, phase: phase, feedback: feedback)
            guard let bits = sliced, policy.usable(bits, from: attempt) else { continue }
            if index == 0 { firstSlice = bits }
            if firstUsable == nil { firstUsable = (bits, phase) }
            if weak, bits.downlinkFormat == 17 || bits.downlinkFormat == 18 { squitterSlices.append((bits, phase)) }
            if attempt.slicer == .sequence || tentative == nil { tentative = bits }
            if attempt.slicer == .sequence { fitPhase = phase }
            if let frame = judge(bits, attempt: attempt, phase: phase, feedback: feedback, candidate) {
                return .frame(frame, phase: phase)
            }
        }
        let bestPhase = phases.index(0)
        // The channel fit needs the raw samples (kept for cancellation) of the stream itself,
        // and a window that does not look like another reply's data (`feedbackRanks`). Nor
        // is it tried inside a frame just found: there the window is mostly that frame's own
        // data at the wrong timing, and a reply that truly starts inside it is found in the
        // residual once the frame is cancelled. (On the test skies such fits were an eighth of
        // all fits on a dense sky, nearly a third near the noise, and gave 13 frames in 79,000:
        // leaving them out lost 1 to 3 frames a stream, and 3 % of the instructions on a dense
        // sky, 9 % near the noise.)
        let fits = options.channelFit && options.cancelOverlaps && !inResidual && plan.feedbackRanks > 0
            && !candidate.place.insideFrame
        // Without any slice of a format a transponder sends, a squitter or an all-call reply
        // with one wrong format bit may still be there (`BitSlicer.sliceWithFormatBitTurned`).
        // Most such slices are noise or the inside of another reply; one naming an aircraft
        // heard (`namesHeardAircraft`) is worth a fit.
        if fits, tentative == nil, let turned = slicer.sliceWithFormatBitTurned(samples, phase: bestPhase),
           namesHeardAircraft(turned) {
            tentative = turned
        }
        // Nor where a much louder signal shares the window (`SlicePlan.fitWorthwhile`).
        if fits, let tentative,
           case let peak = SlicePlan.windowPeak(samples, span: kernels.span(bitCount: tentative.bitCount), floor: floor),
           SlicePlan.fitWorthwhile(peak: peak, level: bestLevel, sampleRate: sampleRate) {
            if let frame = channelFitFrame(candidate, from: tentative, phase: fitPhase, feedback: bestLevel) {
                return .frame(frame, phase: fitPhase)
            }
            // The fit fits its taps to the bits it starts from and then turns only the bits
            // that lower the error one at a time, so where it ends depends on where it
            // starts (`restartedFitFrame`). It starts again on a weak reply, and at 2.0 MS/s,
            // where the sequence is decided at every strength, unless a louder signal shares
            // the window (`SlicePlan.restartWorthwhile`).
            if weak || sampleRate == .twoMega,
               SlicePlan.restartWorthwhile(peak: peak, level: bestLevel, sampleRate: sampleRate),
               let (frame, phase) = restartedFitFrame(candidate, tentative: tentative, fitPhase: fitPhase,
                                                      firstUsable: firstUsable, feedback: bestLevel) {
                statistics.restartedChannelFitFrames += 1
                return .frame(frame, phase: phase)
            }
        }
        if policy.triesCoherent(firstSlice: firstSlice, place: candidate.place),
           let plain = firstSlice, let frame = coherentAttempt(plain, phase: bestPhase,
                                                               level: bestAmplitude - Double(floor), candidate) {
            return .frame(frame, phase: bestPhase)
        }
        if !inResidual { failedStarts.append(position, score: phases.score(0)) }
        return .none
    }

    /// The frame the channel fit finds for `candidate` from starts other than `tentative` at
    /// `fitPhase`, which found nothing, and the phase it was sliced at.
    ///
    /// Near the noise the sequence's bits and the first slice's, a bit or two apart, often
    /// lead the fit to different ends, each right about as often. So the fit starts again
    /// from the first usable slice (`firstUsable`); on a weak reply from every other usable
    /// slice of a squitter too, whose parity checks every bit the fit decides (address/parity
    /// replies and all-call codes, which it does not check, came out wrong from such starts
    /// now and then); and on a faint reply from the first of those with one of its least
    /// confident bits turned, the bit most likely wrong, which may be just the one that sent
    /// the fit astray. (A strong reply at 2.4 MS/s, whose first usable slice came at another
    /// phase than the best, gave 7 frames on 16 test streams this way, for 2 % of the dense
    /// sky's time: strong replies at 2.4 MS/s do not start again.)
    private func restartedFitFrame(_ candidate: Candidate, tentative: ModeSBits, fitPhase: Int,
                                   firstUsable: (bits: ModeSBits, phase: Int)?,
                                   feedback: Int32) -> (Frame, Int)? {
        if let first = firstUsable, first.bits != tentative || first.phase != fitPhase,
           let frame = channelFitFrame(candidate, from: first.bits, phase: first.phase, feedback: feedback) {
            return (frame, first.phase)
        }
        for (index, start) in squitterSlices.enumerated() {
            let tried = (start.bits == tentative && start.phase == fitPhase)
                || (start.bits == firstUsable?.bits && start.phase == firstUsable?.phase)
                || squitterSlices[..<index].contains { $0.bits == start.bits && $0.phase == start.phase }
            if !tried, let frame = channelFitFrame(candidate, from: start.bits, phase: start.phase, feedback: feedback) {
                return (frame, start.phase)
            }
        }
        if SlicePlan.isFaint(level: feedback, floor: candidate.floor), let first = squitterSlices.first,
           let frame = turnedBitFitFrame(candidate, from: first, feedback: feedback) {
            return (frame, first.phase)
        }
        return nil
    }

    /// The frame the channel fit decides for `candidate` started from `tentative` at
    /// `phase`, if the acceptance rules admit it; counted in the statistics.
    private func channelFitFrame(_ candidate: Candidate, from tentative: ModeSBits, phase: Int,
                                 feedback: Int32) -> Frame? {
        statistics.channelFitAttempts += 1
        let attempt = SliceAttempt(rank: 0, slicer: .channelFit)
        guard let bits = channelFitSlicer.slice(raw: rawSamples(at: candidate.position), magnitudes: candidate.samples,
                                                phase: phase, tentative: tentative, canceller: canceller),
              policy.usable(bits, from: attempt),
              let frame = judge(bits, attempt: attempt, phase: phase, feedback: feedback, candidate) else { return nil }
        statistics.channelFitFrames += 1
        return frame
    }

    /// The frame the channel fit decides for `candidate` started from `slice` with one bit
    /// turned: each of its six least confident bits after the downlink format (by the plain
    /// decisions at its phase) in turn, weakest first; nil when none gives one. Six: on 17
    /// simulated streams three found three fifths of what six find, and ten two fifths more.
    private func turnedBitFitFrame(_ candidate: Candidate, from slice: (bits: ModeSBits, phase: Int),
                                   feedback: Int32) -> Frame? {
        slicer.confidence(candidate.samples, phase: slice.phase, feedback: 0, bitCount: slice.bits.bitCount,
                          into: confidence)
        var order = (0, 0, 0, 0, 0, 0)
        return withUnsafeMutableBytes(of: &order) { bytes -> Frame? in
            let weakest = bytes.bindMemory(to: Int.self)
            // The confidences are read here, before the fits' judgements overwrite them.
            let taken = RepairGate.leastConfident(confidence, bits: 6...slice.bits.bitCount, into: weakest)
            for number in weakest[..<taken] {
                var start = slice.bits
                start.flipBit(number)
                if let frame = channelFitFrame(candidate, from: start, phase: slice.phase, feedback: feedback) {
                    return frame
                }
            }
            return nil
        }
    }

    /// Whether the address field of a DF11 or DF17 `bits` (bits 9–32) names an aircraft
    /// heard, or would with one of its bits turned: a slice with a few wrong bits mostly
    /// gets the address right or one bit wrong, which the channel fit then decides again.
    /// A noise slice or the inside of another reply lands on one of those few hundred
    /// addresses (times 25) among 2^24 seldom, so the fits this asks for cost next to
    /// nothing.
    private func namesHeardAircraft(_ bits: ModeSBits) -> Bool {
        let address = UInt32(truncatingIfNeeded: bits.field(9, 32))
        if seen.mayContain(address) { return true }
        return (0..<24).contains { seen.mayContain(address ^ (1 << UInt32($0))) }
    }

    /// The raw samples (kept for cancellation) from stream position `position` on.
    @inline(__always)
    private func rawSamples(at position: Int) -> UnsafeRawPointer {
        UnsafeRawPointer(self.raw + (position - bufferStart) * format.bytesPerSample)
    }

    /// Whether the start at `samples` is the shadow of a stronger preamble 3.5 µs on (see
    /// `CandidateGate.shadowsStrongerPreamble`), by this sample rate's gate.
    private func shadowsStrongerPreamble(_ samples: UnsafePointer<UInt16>, score: Int32, floor: UInt32) -> Bool {
        switch sampleRate {
        case .twoPointFourMega: Gate2400.shadowsStrongerPreamble(samples, score: score, floor: floor, detector: detector)
        case .twoMega: Gate2000.shadowsStrongerPreamble(samples, score: score, floor: floor, detector: detector)
        }
    }

    /// Applies the acceptance rules, in `AcceptancePolicy`'s order, to the bits one attempt
    /// sliced at `phase` with `feedback`; returns the validated frame or nil. Bit
    /// confidences are only computed for the rules that need them.
    private func judge(_ sliced: ModeSBits, attempt: SliceAttempt, phase: Int, feedback: Int32,
                       _ candidate: Candidate) -> Frame? {
        let samples = candidate.samples
        let floor = candidate.floor
        let time = candidate.time
        var bits = sliced
        if sliced.downlinkFormat == 11, sliced.bitCount == 56, CRC.syndrome(of: sliced) == 0 {
            codeZeroReadings.record(address: UInt32(sliced.field(9, 32)), at: candidate.position)
        }
        let screening = repairGate.screen(bits)
        if screening == .reject { return threeBitRepaired(bits, attempt: attempt, phase: phase, feedback: feedback, candidate) }
        // The route takes two lookups and the window checks measure the samples: an
        // address/parity slice naming no aircraft (most noise) is dropped before measuring.
        let parity = screening == .addressParity ? CRC.syndrome(of: bits) : 0
        let route = policy.addressParityRoute(screening, place: candidate.place, seen: seen.mayContain(parity),
                                              nearSeen: near.mayContain(parity))
        if route == .reject { return nil }
        guard policy.passesWindowChecks(
            screening, place: candidate.place,
            looksLikeDataWindow: detector.looksLikeDataWindow(at: samples, phase: phase, floor: floor),
            lopsided: detector.isLopsided(at: samples, phase: phase, floor: floor)) else { return nil }
        // Rule 7e: an all-call reply with one wrong bit outside its code, from an aircraft
        // already confirmed. Where its code may be wrong too, the channel fit is asked last
        // (below).
        var repairedBits = 0
        if screening == .allCallRepair {
            measureConfidence(attempt, bits, samples, phase: phase, feedback: feedback)
            guard let number = repairGate.allCallRepair(bits, confidence: confidence) else { return nil }
            bits.flipBit(number)
            guard isKnown(UInt32(bits.field(9, 32)), at: time) else { return nil }
            repairedBits = 1
        }
        switch route {
        case .asIs: break
        case .reject: return nil
        case .repairOneBit:
            measureConfidence(attempt, bits, samples, phase: phase, feedback: feedback)
            guard let number = repairGate.addressParityRepair(bits, confidence: confidence, isKnown: {
                seen.mayContain($0) && isKnown($0, at: time)
            }) else { return nil }
            bits.flipBit(number)
        }
        if policy.requiresFirmness(screening) {
            measureConfidence(attempt, bits, samples, phase: phase, feedback: feedback)
            // The clipping is read from the raw samples, kept only for cancellation.
            let readsClipping = options.cancelOverlaps && policy.readsClipping(attempt: attempt, place: candidate.place)
            let raw = rawSamples(at: candidate.position)
            guard repairGate.firmEnough(
                confidence, count: bits.bitCount, typicalScore: typicalScore(attempt, samples, phase: phase, floor: floor),
                decidedAtRails: {
                    readsClipping && clippedBits.decides(bits, bit: $0 + 1, phase: phase, raw: raw, magnitudes: samples)
                }) else { return nil }
        }
        if screening == .addressParity, !AcceptancePolicy.agreesWithSquitters(bits, reports: squitterReports, at: time) {
            statistics.squitterMismatches += 1
            return nil
        }
        // The aircraft's own standing of this code, looked up at most once (rules 6 and 7b).
        var standing: AddressCodes.Standing?
        func ownCode() -> AddressCodes.Standing {
            if let known = standing { return known }
            let looked = addressCodes.standing(of: AcceptancePolicy.interrogatorCode(of: bits),
                                               address: UInt32(bits.field(9, 32)), at: time)
            standing = looked
            return looked
        }
        // The channel fit of these bits, run at most once however many rules ask for it.
        var fit: ModeSBits?? = nil
        func fitted() -> ModeSBits? {
            if let known = fit { return known }
            let decided = channelFitDecision(of: bits, candidate, phase: phase)
            fit = .some(decided)
            return decided
        }
        guard policy.acceptsAllCall(
            bits, attempt: attempt,
            overlapped: interference.overlapped(bits, samples, phase: phase, floor: floor,
                                               onlyFrom: AcceptancePolicy.overlapMattersFrom(bits)),
            followedClosely: interference.followedClosely(samples, phase: phase, floor: floor),
            codeBelievable: interference.nonZeroCodeBelievable(bits, samples, phase: phase, floor: floor),
            plainAgrees: interference.plainAgreesOnCode(bits, samples, phase: phase),
            fitsCleanly: fitsCleanly(bits, samples, phase: phase, floor: floor),
            codeDecided: channelFitSlicer.codeBitsDecided(bitCount: bits.bitCount),
            codeClipped: channelFitSlicer.codeClipped(bitCount: bits.bitCount),
            codeUnderCancelledFrame: cancelledFrame.overlaps(
                (candidate.position + kernels.firstSample(ofBit: bits.bitCount - 6))
                    ..< (candidate.position + kernels.span(bitCount: bits.bitCount))),
            confirmedByChannelFit: channelFitConfirms(bits, candidate, phase: phase, fitted: fitted),
            fitAgreesBelowSixFloors: !stands(6, floorsAbove: floor, samples, phase: phase)
                && channelFitAgrees(bits, attempt: attempt, fitted: fitted),
            clearOfNoise: !canFit(candidate) || stands(4, floorsAbove: floor, samples, phase: phase),
            ownCode: ownCode()) else { return nil }
        if bits.downlinkFormat == 11 {
            measureConfidence(attempt, bits, samples, phase: phase, feedback: feedback)
            // The channel fit's confidences are on its own scale, which floors do not measure.
            let firm = AcceptancePolicy.interrogatorCode(of: bits) == 0 && attempt.slicer != .channelFit
                ? RepairGate.squitterFirmScore(floor: floor, bitScale: kernels.bitScale) : .max
            let (weak, overstated) = repairGate.codeBits(confidence, count: bits.bitCount, firm: firm)
            // Near the noise, a weak bit of a station's code is weighed only when the channel
            // fit decides the same code, and below six floors the fit's agreement settles a
            // doubt of code 0 (see `codeUnambiguous`).
            guard policy.codeUnambiguous(
                AcceptancePolicy.interrogatorCode(of: bits), weakBits: weak, overstated: overstated,
                clearOfNoise: stands(4, floorsAbove: floor, samples, phase: phase),
                strong: stands(6, floorsAbove: floor, samples, phase: phase),
                fitAgrees: channelFitAgrees(bits, attempt: attempt, fitted: fitted),
                // The clipping is read from the raw samples, kept only for cancellation.
                decidedAtRails: options.cancelOverlaps
                    && policy.readsClipping(attempt: attempt, place: candidate.place)
                    && clippedBits.decidesCode(bits, phase: phase, raw: rawSamples(at: candidate.position),
                                                   magnitudes: samples),
                ownCode: ownCode(),
                believed: { interrogators.believes($0, at: time) }) else { return nil }
            guard policy.codeStandsAgainstChannelFit(
                bits, attempt: attempt, place: candidate.place,
                strong: stands(6, floorsAbove: floor, samples, phase: phase),
                fitted: fitted) else {
                statistics.codesOverruledByChannelFit += 1
                return nil
            }
            // Rules 7f and 7g: doubts that the code might be 0 after all.
            let interrogatorCode = AcceptancePolicy.interrogatorCode(of: bits)
            guard policy.stationCodeStands(interrogatorCode, codeZeroNearby: codeZeroReadings.contains(
                    address: UInt32(bits.field(9, 32)), near: candidate.position, reach: AcceptancePolicy.codeZeroReach)),
                  policy.feedbackCodeStands(
                    interrogatorCode, attempt: attempt,
                    plainWeak: {
                        slicer.confidence(samples, phase: phase, feedback: 0, bitCount: bits.bitCount, into: confidence)
                        return repairGate.codeBits(confidence, count: bits.bitCount).weak
                    },
                    fitAgrees: channelFitAgrees(bits, attempt: attempt, fitted: fitted)) else { return nil }
        } else if screening == .needsJudgement {
            measureConfidence(attempt, bits, samples, phase: phase, feedback: feedback)
            guard policy.admits(repairGate.judge(bits, confidence: confidence), isKnown: { isKnown($0, at: time) })
                    || repairsCollision(bits, phase: phase, candidate) else { return nil }
            guard AcceptancePolicy.smallRepairAgreesWithSquitters(
                bits, fix: repairGate.repair(of: bits), clearOfNoise: stands(4, floorsAbove: floor, samples, phase: phase),
                reports: squitterReports, at: time) else {
                statistics.squitterMismatches += 1
                return nil
            }
        }
        // Rule 7e, last: the channel fit's word on a repaired reply's code, where it may be
        // wrong too (its run shared with rules 6 and 7c).
        if repairedBits > 0, policy.allCallRepairNeedsChannelFit(
            stationCode: AcceptancePolicy.interrogatorCode(of: bits) != 0, attempt: attempt,
            strong: stands(6, floorsAbove: floor, samples, phase: phase)),
           fitted()?.field(AcceptancePolicy.firstCodeBit, 56) != bits.field(AcceptancePolicy.firstCodeBit, 56) {
            return nil
        }
        // Whether the address was known before this reply (validating a DF11 confirms it).
        let code = policy.codeToVouchFor(bits)
        let knownBefore = code != nil && policy.codeOfKnownAddressBelieved(
            attempt: attempt,
            addressKnown: isKnown(UInt32(bits.field(9, 32)), at: time),
            codeFirm: codeFirm(bits, samples: samples, phase: phase, feedback: feedback, floor: floor))
        // Vouched for before validating: validating a DF11 confirms its address, which must
        // not happen for a reply whose code is then refused (a later attempt at the same
        // reply would find its address known and believe the code on that alone).
        if let code, !interrogators.vouch(code, address: UInt32(bits.field(9, 32)), time: time), !knownBefore {
            return nil
        }
        guard var frame = validator.validate(bits, time: time) else { return nil }
        if bits.downlinkFormat == 11 {
            addressCodes.record(AcceptancePolicy.interrogatorCode(of: bits), address: UInt32(bits.field(9, 32)), time: time)
        }
        if repairedBits > 0 {
            frame.correctedBits += repairedBits
            statistics.allCallRepairs += 1
        }
        return frame
    }

    /// Whether the channel fit can decide the candidate's reply: it needs the raw samples of
    /// the stream itself (kept only when overlaps are cancelled), not a residual's.
    private func canFit(_ candidate: Candidate) -> Bool {
        options.channelFit && options.cancelOverlaps && !candidate.place.inResidual
    }

    /// The channel fit's decisions for the reply the candidate's `bits` were sliced from at
    /// `phase`, started from those bits; nil when the fit finds no reply there, or cannot run
    /// (it needs the raw samples, kept only when overlaps are cancelled).
    private func channelFitDecision(of bits: ModeSBits, _ candidate: Candidate, phase: Int) -> ModeSBits? {
        guard canFit(candidate) else { return nil }
        let raw = rawSamples(at: candidate.position)
        return channelFitSlicer.slice(raw: raw, magnitudes: candidate.samples, phase: phase, tentative: bits,
                                      canceller: canceller)
    }

    /// Whether the channel fit confirms the DF11 `bits` sliced at `phase`: the reply stands at
    /// least six floors above the floor (weaker ones leave the fit too little to go on), and
    /// the fit started from these bits decides every one the same and explains their code
    /// cleanly (`ChannelFitSlicer.codeFitsCleanly`). `fitted` runs the fit (see
    /// `channelFitDecision`).
    private func channelFitConfirms(_ bits: ModeSBits, _ candidate: Candidate, phase: Int,
                                    fitted: () -> ModeSBits?) -> Bool {
        guard stands(6, floorsAbove: candidate.floor, candidate.samples, phase: phase),
              fitted() == bits,
              channelFitSlicer.codeFitsCleanly(bitCount: bits.bitCount) else { return false }
        statistics.codesConfirmedByChannelFit += 1
        return true
    }

    /// Whether the channel fit, started from the DF11 `bits` that a slicer other than the fit
    /// decided, decides the same interrogator code (rules 6 and 7b below six floors, see
    /// `AcceptancePolicy.acceptsAllCall`, `AcceptancePolicy.codeUnambiguous` and
    /// `AcceptancePolicy.decidesSameCode`). The fit's own bits cannot vouch for themselves.
    /// `fitted` runs the fit (see `channelFitDecision`).
    private func channelFitAgrees(_ bits: ModeSBits, attempt: SliceAttempt, fitted: () -> ModeSBits?) -> Bool {
        attempt.slicer != .channelFit && AcceptancePolicy.decidesSameCode(fitted(), as: bits)
    }

    /// Whether every interrogator-code bit of the DF11 `bits` was decided firmly at `phase`
    /// (see `RepairGate.codeFirm`), measured against a clean bit of this reply's amplitude,
    /// the reply stands at least six floors above the floor (about 12 dB): below that,
    /// noise still decides one bit in a few thousand firmly wrong, and a DF11 from a known
    /// aircraft has no other check on its code; and none of its last 12 bits has its empty
    /// chip at 9/16 of the pulse level (rule 6 allows one): the first pulses of an equally
    /// strong reply starting over the code bits can flip one firmly.
    private func codeFirm(_ bits: ModeSBits, samples: UnsafePointer<UInt16>, phase: Int, feedback: Int32,
                          floor: UInt32) -> Bool {
        let level = detector.pulseAmplitude(at: samples, phase: phase) - Double(floor)
        guard level >= 6 * Double(floor),
              slicer.loudOffChips(bits, samples, phase: phase, limit: Double(floor) + 9.0 / 16.0 * level,
                                  from: bits.bitCount - 12, enough: 1) == 0 else { return false }
        slicer.confidence(samples, phase: phase, feedback: feedback, bitCount: bits.bitCount, into: confidence)
        return repairGate.codeFirm(confidence, count: bits.bitCount,
                                   typicalScore: typicalBitScore(samples, phase: phase, floor: floor))
    }

    /// Whether the channel fit's DF11 `bits` stand at least two floors above the floor and
    /// its model explains their interrogator code cleanly (see
    /// `ChannelFitSlicer.codeFitsCleanly`): weaker replies have too many near-even bits for
    /// 7 unchecked ones to be right often enough.
    private func fitsCleanly(_ bits: ModeSBits, _ samples: UnsafePointer<UInt16>, phase: Int, floor: UInt32) -> Bool {
        stands(2, floorsAbove: floor, samples, phase: phase) && channelFitSlicer.codeFitsCleanly(bitCount: bits.bitCount)
    }

    /// Whether the reply at `samples` stands at least `floors` noise floors above `floor`: its
    /// pulse amplitude at `phase`, less the floor, is `floors` times the floor or more. The
    /// rules' yardstick of a reply's strength.
    private func stands(_ floors: Double, floorsAbove floor: UInt32, _ samples: UnsafePointer<UInt16>,
                        phase: Int) -> Bool {
        detector.pulseAmplitude(at: samples, phase: phase) - Double(floor) >= floors * Double(floor)
    }

    /// Writes the confidence of each bit of `attempt`'s decisions `bits` to `confidence`: the bit
    /// slicer's scores at `phase` with `feedback`, or the channel fit's own.
    private func measureConfidence(_ attempt: SliceAttempt, _ bits: ModeSBits, _ samples: UnsafePointer<UInt16>,
                                   phase: Int, feedback: Int32) {
        if attempt.slicer == .channelFit {
            channelFitSlicer.confidence(bitCount: bits.bitCount, into: confidence)
        } else {
            slicer.confidence(samples, phase: phase, feedback: feedback, bitCount: bits.bitCount, into: confidence)
        }
    }

    /// The confidence a clean bit of `attempt`'s decisions would get (see `measureConfidence`).
    private func typicalScore(_ attempt: SliceAttempt, _ samples: UnsafePointer<UInt16>, phase: Int,
                              floor: UInt32) -> Int32 {
        attempt.slicer == .channelFit ? ChannelFitSlicer.typicalConfidence
            : typicalBitScore(samples, phase: phase, floor: floor)
    }

    /// The score a clean bit of the reply at `samples` would get: its pulse amplitude
    /// above the floor through the bit kernel.
    private func typicalBitScore(_ samples: UnsafePointer<UInt16>, phase: Int, floor: UInt32) -> Int32 {
        let amplitude = detector.pulseMean(at: samples, phase: phase) - Double(floor)
        return Int32(max(0, amplitude)) &* kernels.bitScale
    }

    /// Whether the one- or two-bit repair of the DF17/18 `bits` (sliced at `phase`), refused
    /// for its firm bits, is believed as a collision (rule 7d,
    /// `AcceptancePolicy.admitsCollisionRepair`); counts it when it is.
    private func repairsCollision(_ bits: ModeSBits, phase: Int, _ candidate: Candidate) -> Bool {
        guard let fix = repairGate.repair(of: bits) else { return false }
        let samples = candidate.samples
        var repaired = bits
        repaired.flipBit(fix.first)
        if fix.second > 0 { repaired.flipBit(fix.second) }
        // Half the reply's pulse level above the floor.
        let limit = (detector.pulseAmplitude(at: samples, phase: phase) + Double(candidate.floor)) / 2
        func loud(_ bit: Int) -> Bool { slicer.bothChipsLoud(bit - 1, samples, phase: phase, limit: limit) }
        guard limit > Double(candidate.floor), policy.admitsCollisionRepair(
            repairedBitsBothLoud: loud(fix.first) && (fix.second == 0 || loud(fix.second)),
            twoBits: fix.second > 0,
            bothLoudCount: slicer.bothChipsLoudCount(bits.bitCount, samples, phase: phase, limit: limit,
                                                     enough: AcceptancePolicy.maximumCollisionBits),
            addressKnown: isKnown(UInt32(repaired.field(9, 32)), at: candidate.time),
            agreesWithSquitters: AcceptancePolicy.repairAgreesWithSquitters(repaired, reports: squitterReports,
                                                                            at: candidate.time)) else { return false }
        statistics.collisionRepairs += 1
        return true
    }

    /// The three-bit repair of bits that the one- and two-bit tables cannot explain
    /// (see `RepairGate.threeBitRepair`), or nil when the policy does not allow or believe it.
    private func threeBitRepaired(_ bits: ModeSBits, attempt: SliceAttempt, phase: Int, feedback: Int32,
                                  _ candidate: Candidate) -> Frame? {
        let samples = candidate.samples
        guard policy.triesThreeBitRepair(bits, place: candidate.place,
                                         addressKnown: isKnown(UInt32(bits.field(9, 32)), at: candidate.time)),
              repairGate.threeBitRepairPossible(bits)
        else { return nil }
        measureConfidence(attempt, bits, samples, phase: phase, feedback: feedback)
        guard let repaired = repairGate.threeBitRepair(bits, confidence: confidence) else { return nil }
        let address = UInt32(repaired.field(9, 32))
        // A stronger reply on top: a sample beyond what this reply and one as strong could
        // make. A weak reply is measured as if four floors above the floor, since noise
        // alone reaches twice its level.
        let level = max(4 * Double(candidate.floor),
                        detector.pulseAmplitude(at: samples, phase: phase) - Double(candidate.floor))
        guard policy.acceptsThreeBitRepair(
            repairedAddressKnown: isKnown(address, at: candidate.time),
            looksLikeDataWindow: detector.looksLikeDataWindow(at: samples, phase: phase, floor: candidate.floor),
            lopsided: detector.isLopsided(at: samples, phase: phase, floor: candidate.floor),
            overlapped: interference.louderThanTwoReplies(samples, bitCount: repaired.bitCount, level: level,
                                                          floor: candidate.floor))
        else { return nil }
        guard AcceptancePolicy.repairAgreesWithSquitters(repaired, reports: squitterReports, at: candidate.time) else {
            statistics.squitterMismatches += 1
            return nil
        }
        return Frame(bits: repaired, address: address, correctedBits: 3)
    }

    /// The last try at a candidate whose every magnitude slice failed: a strong DF17/18,
    /// sliced again on its own carrier (see `ReplyCanceller.coherentBits`), where an
    /// overlapping weaker reply of similar strength garbles the magnitudes but not the
    /// phase of the stronger one's carrier. `plain`: the plain slice at the best phase;
    /// `level`: the pulse amplitude at `phase` above the floor.
    private func coherentAttempt(_ plain: ModeSBits, phase: Int, level: Double, _ candidate: Candidate) -> Frame? {
        let samples = candidate.samples
        let floor = candidate.floor
        // Below three floors above the floor, noise rather than an overlap breaks the bits;
        // and beneath a stronger reply the carrier cannot be fitted.
        guard level >= 3 * Double(floor),
              !detector.looksLikeDataWindow(at: samples, phase: phase, floor: floor),
              !detector.isLopsided(at: samples, phase: phase, floor: floor),
              !interference.louderThanTwoReplies(samples, bitCount: plain.bitCount, level: level, floor: floor)
        else { return nil }
        statistics.coherentAttempts += 1
        let raw = rawSamples(at: candidate.position)
        guard let bits = canceller.coherentBits(raw: raw, offsetTenths: kernels.phaseOffsets[phase], bits: plain,
                                                kernels: slicer.kernels(phase: phase), confidence: confidence),
              policy.acceptsCoherent(repairGate.screen(bits), verdict: repairGate.judge(bits, confidence: confidence),
                                     isKnown: { isKnown($0, at: candidate.time) }),
              let validated = validator.validate(bits, time: candidate.time) else { return nil }
        statistics.coherentFrames += 1
        return validated
    }

    /// Whether `address` was confirmed by a clean CRC recently (without touching the
    /// validator's own filter).
    private func isKnown(_ address: UInt32, at time: Double) -> Bool {
        var filter = validator.icaoFilter
        return filter.contains(address, at: time)
    }

    /// Records `frame`, which `examine` found at `position`, and, when another signal runs
    /// past either end of it, looks for that signal with the frame cancelled. Returns where
    /// to resume the search.
    private func accept(_ frame: Frame, at position: Int, phase: Int, floor: UInt32, emit: (Frame) -> Void) -> Int {
        let samples = UnsafePointer(magnitudes + (position - bufferStart))
        let bits = frame.bits
        record(frame, at: position, phase: phase, samples: samples)
        let span = kernels.span(bitCount: bits.bitCount)
        insideFrameUntil = max(insideFrameUntil, position + span)
        // The gate measures 24 × (mean pulse − mean quiet); require that difference to
        // exceed `insideStrengthSixteenths`/16 of this frame's pulse level above the floor.
        let level = max(0, detector.pulseMean(at: samples, phase: phase) - Double(floor))
        insideGateThreshold = Int32(min(Double(Int32.max / 2), 24 * level * Double(options.insideStrengthSixteenths) / 16))
        if options.cancelOverlaps {
            let sides = recovery.sidesRunningPast(bits, samples, floor: floor, level: level,
                                                  before: position - bufferStart)
            if sides.any { searchWithout(bits, at: position, phase: phase, floor: floor, sides: sides) }
        }
        pending.release(before: position - lookback, emit: emit)
        return position + (options.searchInsideFrames ? kernels.preambleSpan : span)
    }

    /// Cancels the frame `bits` found at `position` and examines the best starts of the
    /// residual (see `OverlapRecovery.buriedStarts`), recording what they give.
    private func searchWithout(_ bits: ModeSBits, at position: Int, phase: Int, floor: UInt32,
                               sides: OverlapRecovery.Sides) {
        let span = kernels.span(bitCount: bits.bitCount)
        let windowStart = max(position - lookback, bufferStart)
        let windowEnd = min(position + span + kernels.replySpan, bufferStart + filled + lookahead)
        let starts = recovery.buriedStarts(of: bits, at: position, phase: phase, floor: floor, sides: sides,
                                           windowStart: windowStart, windowEnd: windowEnd,
                                           raw: raw + (windowStart - bufferStart) * format.bytesPerSample,
                                           magnitudes: magnitudes + (windowStart - bufferStart),
                                           failedStarts: failedStarts)
        statistics.cancellations += 1
        cancelledFrame = position..<(position + span)
        defer { cancelledFrame = 0..<0 }
        for rank in 0..<starts.best.count {
            let start = starts.best.start(rank)
            let samples = starts.residual + (start - windowStart)
            guard case .frame(let frame, let phase) = examine(samples, at: start, floor: floor, inResidual: true)
            else { continue }
            record(frame, at: start, phase: phase, samples: samples, recovered: true)
        }
    }

    /// Rule 6c: checks the DF11 codes that a reply recorded at `position` bears on, with
    /// `FollowerCheck`: that of `bits` itself, against a recent reply that follows it closely
    /// (starting on its last code bits or right after them), and those of recent DF11s that
    /// `bits` follows closely, which are taken back from the queue when their code does not
    /// stand. Returns whether `bits` stands.
    private func codesStandFollowers(_ bits: ModeSBits, at position: Int, phase: Int) -> Bool {
        var stands = true
        recent.forEach { other, start, otherPhase in
            if bits.downlinkFormat == 11, followerCheck.follows(offset: start - position),
               !codeStands(bits, at: position, phase: phase, follower: other, at: start, phase: otherPhase) {
                stands = false
            }
            if other.downlinkFormat == 11, followerCheck.follows(offset: position - start),
               !codeStands(other, at: start, phase: otherPhase, follower: bits, at: position, phase: phase),
               let taken = pending.remove(other, at: start) {
                statistics.codesTurnedByFollower += 1
                tally(taken.frame, recovered: taken.recovered, by: -1)
            }
        }
        return stands
    }

    /// Whether the code of the DF11 `allCall` at `start` (phase `phase`) stands with the
    /// reply `follower` at `followerStart` cancelled (see `FollowerCheck`); true when the
    /// samples needed are no longer, or not yet, in the buffer.
    private func codeStands(_ allCall: ModeSBits, at start: Int, phase: Int, follower: ModeSBits,
                            at followerStart: Int, phase followerPhase: Int) -> Bool {
        let readable = bufferStart + filled + lookahead - start
        guard start >= bufferStart, readable > 0 else { return true }
        return followerCheck.codeStands(allCall, phase: phase, follower: follower, offset: followerStart - start,
                                        followerPhase: followerPhase, raw: rawSamples(at: start),
                                        magnitudes: UnsafePointer(magnitudes + (start - bufferStart)),
                                        count: min(readable, FollowerCheck.window(kernels)))
    }

    /// Stamps and counts a validated frame and queues it for emission, unless it repeats a
    /// frame accepted nearby. `recovered`: found beneath a cancelled reply. Returns whether
    /// it was new.
    @discardableResult
    private func record(_ validated: Frame, at position: Int, phase: Int, samples: UnsafePointer<UInt16>,
                        recovered: Bool = false) -> Bool {
        var frame = validated
        let offset = kernels.phaseOffsets[phase]
        frame.timestamp = UInt64(position) * ticksPerSample + UInt64(offset) * ticksPerSample / 10
        frame.signalLevel = kernels.signalLevel(at: samples, phase: phase, bitCount: frame.bits.bitCount)
        let span = kernels.span(bitCount: frame.bits.bitCount)
        guard recent.insert(frame.bits, at: position, phase: phase, within: span) else {
            statistics.duplicates += 1
            return false
        }
        if options.cancelOverlaps, !codesStandFollowers(frame.bits, at: position, phase: phase) {
            statistics.codesTurnedByFollower += 1
            return false
        }
        switch frame.downlinkFormat {
        case 11, 17, 18:
            if seen.insert(frame.address) { near.insert(frame.address) }
            squitterReports.record(frame.bits, address: frame.address, at: Double(position) / Double(sampleRate.hertz))
        default: break
        }
        tally(frame, recovered: recovered, by: 1)
        pending.append(frame, at: position, recovered: recovered)
        return true
    }

    /// Counts a queued frame in the statistics (`by: 1`), or takes it back out (`by: -1`)
    /// when rule 6c takes the frame back from the queue. `recovered`: found beneath a
    /// cancelled reply.
    private func tally(_ frame: Frame, recovered: Bool, by delta: Int) {
        statistics.framesPerFormat[frame.downlinkFormat] += delta
        if frame.correctedBits > 0 { statistics.correctedFrames += delta }
        if recovered { statistics.recoveredFromOverlaps += delta }
    }
}
