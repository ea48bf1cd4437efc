import IQ
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
///
/// It holds the stages of the pipeline, fixed once made, and the state of the stream in a
/// few values: the samples still needed (`StreamBuffers`), where it stands in the stream
/// and its clock (`StreamClock`), the noise floor, where the search stands relative to the
/// frames just found (`SearchState`), what it has learnt of the aircraft it hears
/// (`HeardAircraft`, and the validator's address filter), the frames found but not yet
/// emitted, and its counters.
///
/// This file holds the stream: the buffer and the gated scan over every start. What happens
/// at one start is in the files named after its steps: `StreamingDemodulator+Examination`
/// (the start tests, the preamble and the slicing attempts), `+Judgement` (the acceptance
/// rules of one slice), `+Repairs` (the three-bit and collision repairs), `+ChannelFit`
/// (where the channel fit is asked), `+FoundFrames` (what becomes of a frame found) and
/// `+Overlaps` (the search beneath a cancelled frame).
package final class StreamingDemodulator {
    // The configuration, fixed when the demodulator is made.
    /// The sample layout of the input.
    package let format: SampleFormat
    /// The sample rate of the input.
    package let sampleRate: SampleRate
    /// What the options were when the demodulator was made.
    package let configuredOptions: Options
    /// The options at the current `level`: the configured ones with the techniques the level
    /// leaves out switched off.
    package private(set) var options: Options
    /// How much recovery work the demodulator does now (see `DemodulatorLevel`).
    package private(set) var level = DemodulatorLevel.full
    /// Whether the raw samples are kept beside the magnitudes: when the configured options
    /// cancel overlaps, at every level, so that a step back up finds them already there.
    private let keepsRaw: Bool

    // The stages, fixed once made: the reply model, the slicers and the rules. (The classes among
    // them only own their tables and scratch memory.)
    /// Turns input samples into magnitudes.
    private let converter: MagnitudeConverter
    /// The reply model at this sample rate: spans, phases and per-bit weights.
    let kernels: ReplyKernels
    /// Scores preambles and measures pulse levels.
    let detector: PreambleDetector
    /// Decides bits one by one (plain and feedback attempts).
    let slicer: BitSlicer
    /// Decides bits as a sequence (the last attempt at weak replies).
    let sequenceSlicer: SequenceSlicer
    /// Decides bits against the reply's own fitted channel (after every other slice).
    let channelFitSlicer: ChannelFitSlicer
    /// Whether a reply needing repair may be repaired at all.
    let repairGate: RepairGate
    /// The ordered rules that turn a slice into a frame.
    var policy: AcceptancePolicy
    /// Measurements of other signals on top of a reply, for `policy`.
    let interference: InterferenceChecks
    /// Reads which bits of a reply at the rails the clipping decides.
    let clippedBits: ClippedBits
    /// Subtracts a decoded reply from the raw samples; also decides bits coherently.
    let canceller: ReplyCanceller
    /// Cancels frames and finds the replies they buried (used with `cancelOverlaps`).
    let recovery: OverlapRecovery
    /// Decides a DF11's code again with the reply that follows it closely cancelled.
    let followerCheck: FollowerCheck

    // The state of the stream.
    /// The stream's magnitudes and raw samples still needed.
    let buffers: StreamBuffers
    /// Where the demodulator stands in the stream, and its sample clock.
    var clock: StreamClock
    /// The noise floor per window of samples, which every threshold scales with.
    var noise = NoiseFloorEstimator()
    /// Where the search stands relative to the frames just found.
    var searchState = SearchState()
    /// What the demodulator has learnt of the aircraft it hears.
    var heard = HeardAircraft()
    /// The CRC check and repair, with the addresses confirmed so far.
    var validator: FrameValidator
    /// Frames waiting to be emitted in time order: one recovered from under a later frame
    /// may start before frames already found.
    var pending = PendingFrames()
    /// Recently accepted frames, to drop the same reply found again nearby.
    var recent = RecentFrames()
    /// Counters so far.
    package internal(set) var statistics = DemodulatorStatistics()

    // Scratch memory of one examination.
    /// |score| of each bit of the reply being examined.
    let confidence: UnsafeMutablePointer<Int32>
    /// The usable slices of a squitter (DF17/18) and their phases that the current
    /// examination of a weak reply gave: where the channel fit starts once more when its
    /// first two starts found nothing (see `examine`). Emptied, never shrunk, per start.
    var squitterSlices: [(bits: ModeSBits, phase: Int)] = []

    /// A demodulator for a stream of `format` samples at `sampleRate`.
    package init(format: SampleFormat, sampleRate: SampleRate, options: Options = Options()) {
        self.format = format
        self.sampleRate = sampleRate
        self.configuredOptions = options
        self.options = options
        self.keepsRaw = options.cancelOverlaps
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
        self.buffers = StreamBuffers(format: format, replySpan: kernels.replySpan)
        self.clock = StreamClock(sampleRate: sampleRate)
        self.canceller = ReplyCanceller(
            format: format, kernels: kernels,
            maximumWindow: buffers.lookback + 2 * kernels.replySpan)
        self.confidence = .allocate(capacity: ReplyKernels.maximumBits)
        self.confidence.initialize(repeating: 0, count: ReplyKernels.maximumBits)
        self.repairGate = RepairGate(
            rankLimit: options.repairRankLimit,
            knownAddressRankLimit: options.knownAddressRankLimit,
            allowTwoBits: options.allowTwoBitCorrection)
        self.policy = AcceptancePolicy(options: options, sampleRate: sampleRate)
        self.interference = InterferenceChecks(kernels: kernels, detector: detector, slicer: slicer)
        clippedBits = ClippedBits(kernels: kernels, format: format)
        self.recovery = OverlapRecovery(
            kernels: kernels, detector: detector, canceller: canceller,
            sampleRate: sampleRate, gateSixteenths: options.gateSixteenths,
            gateQuietSixteenths: options.gateQuietSixteenths)
        followerCheck = FollowerCheck(format: format, kernels: kernels, slicer: slicer, repairGate: repairGate)
        setLevel(options.level)
    }

    deinit {
        confidence.deallocate()
    }

    /// Moves to `level` from the next sample on. Every technique reads the options as it is
    /// used, so a change between two blocks takes effect at once; the raw samples a higher
    /// level needs are always kept (`keepsRaw`).
    package func setLevel(_ level: DemodulatorLevel) {
        self.level = level
        options = level.restrict(configuredOptions)
        policy.coherentRetry = options.coherentRetry && options.cancelOverlaps
    }

    /// Bytes of an incomplete sample held over for the next block (0 after a whole sample).
    package var carriedBytes: Int { clock.carryCount }

    /// Feeds the next bytes of the stream; `emit` receives every frame completed so far.
    package func process(_ bytes: UnsafeRawBufferPointer, emit: (Frame) -> Void) {
        precondition(!clock.finished, "process after finish")
        guard var source = bytes.baseAddress, !bytes.isEmpty else { return }
        var remaining = bytes.count
        let size = format.bytesPerSample
        if clock.carryCount > 0 {
            let take = min(size - clock.carryCount, remaining)
            var carry = clock.carry
            withUnsafeMutableBytes(of: &carry) { carryBytes in
                carryBytes.baseAddress!.advanced(by: clock.carryCount).copyMemory(from: source, byteCount: take)
            }
            clock.carry = carry
            clock.carryCount += take
            source += take
            remaining -= take
            if clock.carryCount == size {
                withUnsafeBytes(of: &carry) { append($0.baseAddress!, count: 1, emit: emit) }
                clock.carryCount = 0
            }
        }
        let whole = remaining / size
        if whole > 0 { append(source, count: whole, emit: emit) }
        let rest = remaining - whole * size
        if rest > 0 {
            var carry = clock.carry
            withUnsafeMutableBytes(of: &carry) { carryBytes in
                carryBytes.baseAddress!.copyMemory(from: source + whole * size, byteCount: rest)
            }
            clock.carry = carry
            clock.carryCount = rest
        }
        search(final: false, emit: emit)
    }

    /// Continues the stream after `count` samples were lost (a receiver that fell behind
    /// dropped them), emitting what is completed. What came before the gap is examined to
    /// its end as if the stream stopped there, and the search starts afresh after it, as at
    /// the start of a stream: a reply cut by the gap must not be spliced from the samples on
    /// either side of it. Timestamps go on counting the lost samples, so they stay on the
    /// receiver's sample clock (multilateration compares them between receivers).
    package func resume(afterDropping count: Int, emit: (Frame) -> Void) {
        precondition(!clock.finished, "resume after finish")
        guard count > 0 else { return }
        let end = buffers.end
        // Half a sample before the gap cannot be completed by the bytes after it.
        clock.carryCount = 0
        noise.finish()
        search(final: true, emit: emit)
        pending.release(before: Int.max, emit: emit)
        let restart = end + count
        buffers.start = restart
        buffers.filled = 0
        clock.nextCandidate = restart
        noise.restart(at: restart)
        statistics.droppedSamples += count
    }

    /// Ends the stream: examines the last positions and returns how many bytes of an
    /// incomplete final sample were left over (0 for a well-formed stream).
    @discardableResult
    package func finish(emit: (Frame) -> Void) -> Int {
        guard !clock.finished else { return clock.carryCount }
        noise.finish()
        search(final: true, emit: emit)
        pending.release(before: Int.max, emit: emit)
        clock.finished = true
        return clock.carryCount
    }

    /// Converts `count` whole samples and searches whenever the buffer fills up.
    private func append(_ source: UnsafeRawPointer, count: Int, emit: (Frame) -> Void) {
        var done = 0
        while done < count {
            let room = buffers.capacity - buffers.lookahead - buffers.filled
            if room <= 0 {
                search(final: false, emit: emit)
                continue
            }
            let n = min(room, count - done)
            let size = format.bytesPerSample
            let filled = buffers.filled
            if keepsRaw {
                (buffers.raw + filled * size).copyMemory(from: source + done * size, byteCount: n * size)
            }
            converter.convert(source + done * size, count: n, into: buffers.magnitudes + filled)
            noise.absorb(buffers.magnitudes + filled, count: n)
            buffers.filled += n
            done += n
            statistics.samples += n
        }
    }

    /// Examines every candidate start whose samples (and noise floor) are all available,
    /// then moves the unexamined tail to the front of the buffer.
    func search(final: Bool, emit: (Frame) -> Void) {
        let end = buffers.end
        let limit: Int
        if final {
            // Pad with silence so the last positions can be read like any other.
            buffers.padWithSilence(zero: format == .cu8 ? 128 : 0)
            limit = end
        } else {
            limit = min(end - buffers.lookahead, noise.completedWindows * NoiseFloorEstimator.windowLength)
        }
        if clock.nextCandidate < limit {
            switch sampleRate {
            case .twoPointFourMega: scan(Gate2400.self, upTo: limit, emit: emit)
            case .twoMega: scan(Gate2000.self, upTo: limit, emit: emit)
            }
        }
        // The final search pads with silence that later samples may replace.
        searchState.successorPhases = nil
        // No frame found from here on can start before nextCandidate − lookback.
        pending.release(before: clock.nextCandidate - buffers.lookback, emit: emit)
        // Keep everything from the lookback before the next unexamined position.
        buffers.keep(
            from: min(max(clock.nextCandidate - buffers.lookback, buffers.start), end),
            keepingRaw: keepsRaw)
    }

    /// The hot loop: gate every position in [`clock.nextCandidate`, limit), examine the survivors.
    @inline(__always)
    private func scan<Gate: CandidateGate>(_ gate: Gate.Type, upTo limit: Int, emit: (Frame) -> Void) {
        var position = clock.nextCandidate
        // The next start must be examined whatever the gate says (see `Examination.deferToNext`).
        var forced = false
        while position < limit {
            // The floor is constant within a noise window: scan window by window.
            let windowEnd = min(
                limit, (position / NoiseFloorEstimator.windowLength + 1) * NoiseFloorEstimator.windowLength)
            scanWindow(gate, from: &position, to: windowEnd, forced: &forced, emit: emit)
        }
        clock.nextCandidate = position
    }

    /// `scan` over one noise window, from `position` to `windowEnd`, whose floor is one.
    /// `forced`: the next start is examined whatever the gate says.
    @inline(__always)
    private func scanWindow<Gate: CandidateGate>(
        _ gate: Gate.Type, from position: inout Int, to windowEnd: Int, forced: inout Bool, emit: (Frame) -> Void
    ) {
        let floor = noise.floor(at: position)
        let limits = GateLimits(
            floor: floor, contrastSixteenths: options.gateSixteenths,
            quietSixteenths: options.gateQuietSixteenths)
        let threshold = limits.threshold
        let base = buffers.magnitudes - buffers.start
        var scalarUntil = position
        // The last eight starts tested at once, from `blockStart`: bit k set when start
        // blockStart + k passed there.
        var blockStart = position - 8
        var passing: UInt8 = 0
        while position < windowEnd {
            // Inside a frame just decoded, only a much stronger reply can still be
            // recovered, so the gate asks for more (see `SearchState.insideGateThreshold`).
            let inside = position < searchState.insideFrameUntil
            let current = inside ? max(threshold, searchState.insideGateThreshold) : threshold
            // Eight starts at a time while all eight fail (the common case in noise).
            if position + 8 <= windowEnd, position >= scalarUntil {
                let blockThreshold = position + 8 <= searchState.insideFrameUntil || !inside ? current : threshold
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
}
