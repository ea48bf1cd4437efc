import ModeS

/// The first byte seeds the block cuts; the rest is a Beast stream, parsed once whole and
/// once in blocks. Each frame is validated (strictly, and trusting address/parity frames as
/// for a peer that checked them), decoded, positioned and written as JSON.
///
/// Checks: the cuts do not change what is parsed; a parsed frame encoded again with
/// `BeastEncoder` parses back to the same bits and timestamp; validated frames are consistent
/// (`FrameCheck`); JSON lines are valid.
enum BeastTarget {
    static func run(_ input: UnsafeRawBufferPointer) throws(FuzzFailure) {
        guard let seed = input.first else { return }
        let stream = UnsafeRawBufferPointer(rebasing: input.dropFirst())

        var whole = BeastFrameParser()
        var wholeFrames: [BeastFrameParser.Received] = []
        whole.parse(stream) { wholeFrames.append($0) }

        var pieces = BeastFrameParser()
        var pieceFrames: [BeastFrameParser.Received] = []
        var cutter = BlockCutter(seed: seed)
        try cutter.cut(stream) { block throws(FuzzFailure) in pieces.parse(block) { pieceFrames.append($0) } }
        try check(
            wholeFrames == pieceFrames,
            "cutting the stream changed the frames: \(wholeFrames.count) whole, \(pieceFrames.count) cut")
        try check(
            whole.malformed == pieces.malformed && whole.modeACSkipped == pieces.modeACSkipped,
            "cutting the stream changed the counts: malformed \(whole.malformed) and \(pieces.malformed)")

        var strict = FrameValidator()
        var trusting = FrameValidator(trustAddressParity: true)
        var resolver = PositionResolver()
        for (index, received) in wholeFrames.enumerated() {
            let what = "frame \(index)"
            try check(
                received.signalLevel.isFinite && received.signalLevel <= 0,
                "\(what): signal level \(received.signalLevel) dBFS")
            let encoded = BeastEncoder.encode(
                Frame(
                    bits: received.bits, address: 0, timestamp: received.timestamp,
                    signalLevel: received.signalLevel))
            var reparser = BeastFrameParser()
            var again: [BeastFrameParser.Received] = []
            encoded.withUnsafeBytes { reparser.parse($0) { again.append($0) } }
            try check(
                again.count == 1 && again[0].bits == received.bits && again[0].timestamp == received.timestamp,
                "\(what): \(received.bits.hex) does not survive encoding again")

            let time = Double(received.timestamp) / 12_000_000
            if let frame = strict.validate(received.bits, time: time) {
                try FrameCheck.validated(frame, "\(what) (strict)")
            }
            if let frame = trusting.validate(received.bits, time: time) {
                try FrameCheck.validated(frame, what)
                try FrameCheck.decodes(frame, resolver: &resolver, time: time, what)
            }
        }
    }
}
