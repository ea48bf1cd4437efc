import IQ
import ModeS
import ModeSDemod

/// The first byte picks the sample format (cu8, cs16, cf32), the rate (2.0 or 2.4 MS/s) and
/// which optional stages of the demodulator run; the second seeds the block cuts; the rest is
/// IQ samples, demodulated once in one block and once cut into blocks of varying size (cuts
/// fall inside samples too).
///
/// Checks: the cuts do not change the frames (the demodulator promises the same frames for
/// the same stream however it is cut); frames come out in stream order; every frame is
/// consistent (`FrameCheck`), decodes and writes valid JSON; `finish` reports exactly the
/// bytes of the incomplete last sample.
enum DemodTarget {
    static func run(_ input: UnsafeRawBufferPointer) throws(FuzzFailure) {
        guard input.count >= 2 else { return }
        let control = input[0]
        let format = SampleFormat.allCases[Int(control & 3) % SampleFormat.allCases.count]
        let rate: SampleRate = control & 4 == 0 ? .twoPointFourMega : .twoMega
        var options = StreamingDemodulator.Options()
        options.cancelOverlaps = control & 8 == 0
        options.coherentRetry = control & 16 == 0
        options.sequenceRetry = control & 32 == 0
        options.feedbackRetry = control & 32 == 0
        options.allowTwoBitCorrection = control & 64 == 0
        options.threeBitRepairs = control & 64 == 0
        options.searchInsideFrames = control & 128 == 0
        let samples = UnsafeRawBufferPointer(rebasing: input[2...])
        let leftOver = samples.count % format.bytesPerSample

        let whole = StreamingDemodulator(format: format, sampleRate: rate, options: options)
        var wholeFrames: [Frame] = []
        whole.process(samples) { wholeFrames.append($0) }
        let wholeLeft = whole.finish { wholeFrames.append($0) }
        try check(wholeLeft == leftOver, "finish left \(wholeLeft) bytes of \(samples.count), not \(leftOver)")

        let pieces = StreamingDemodulator(format: format, sampleRate: rate, options: options)
        var pieceFrames: [Frame] = []
        var cutter = BlockCutter(seed: input[1])
        try cutter.cut(samples) { block throws(FuzzFailure) in pieces.process(block) { pieceFrames.append($0) } }
        let piecesLeft = pieces.finish { pieceFrames.append($0) }
        try check(
            piecesLeft == leftOver, "finish after cuts left \(piecesLeft) bytes of \(samples.count), not \(leftOver)")
        try check(
            wholeFrames == pieceFrames,
            "\(format) at \(rate.hertz): cutting the stream changed the frames: \(wholeFrames.map(\.bits.hex)) whole, \(pieceFrames.map(\.bits.hex)) cut"
        )

        var resolver = PositionResolver()
        var last: UInt64 = 0
        for (index, frame) in wholeFrames.enumerated() {
            let what = "\(format) at \(rate.hertz), frame \(index)"
            try check(
                frame.timestamp >= last, "\(what): timestamp \(frame.timestamp) before the previous frame's \(last)")
            last = frame.timestamp
            try FrameCheck.validated(frame, what)
            try FrameCheck.decodes(frame, resolver: &resolver, time: Double(frame.timestamp) / 12_000_000, what)
        }
    }
}
