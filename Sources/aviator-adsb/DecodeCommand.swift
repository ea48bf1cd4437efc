import ArgumentParser
import FoundationEssentials
import ModeS
import Receivers

/// `aviator-adsb decode`: lines of AVR, timestamped AVR, bare hex or CSV in; one JSON object
/// per decoded message out, with positions resolved across the stream.
struct DecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode AVR / hex / CSV lines into one JSON object per message.",
        discussion: """
            Accepts *HEX; (AVR), @TTTTTTTTTTTTHEX; (AVR with a 12 MHz timestamp), bare hex, and \
            CSV rows "unixtime,...,hex,...". Positions are resolved across the stream by pairing \
            even and odd CPR frames of each aircraft, using each line's time when it has one \
            (lines without a time are taken to be 10 ms apart). Malformed lines are reported on \
            standard error with their line number and skipped; lines over 4096 bytes are \
            malformed too (only the first is reported). Output that cannot be written stops \
            the command with status 1. Fields: docs/decode.md.
            """
    )

    @Argument(help: "The file to read; '-' or nothing reads standard input.")
    var file: String = "-"

    @Option(help: ArgumentHelp("Receiver position for local CPR decoding and range checks.", valueName: "lat,lon"))
    var receiver: ReceiverArgument?

    @Option(
        name: .customLong("max-range-km"), help: "Reject positions farther than this from the receiver (at most 20000)."
    )
    var maxRangeKm: Double = 500

    @Flag(
        help:
            "Accept address/parity replies (DF0/4/5/16/20/21) only from addresses already confirmed by a CRC-checked message, as a live receiver does."
    )
    var strict = false

    func validate() throws {
        if !(maxRangeKm.isFinite && maxRangeKm > 0 && maxRangeKm <= 20_000) {
            throw ValidationError("--max-range-km must be more than 0 and at most 20000, got \(maxRangeKm)")
        }
    }

    mutating func run() throws {
        let reader: TextLineReader
        do {
            reader = try TextLineReader(path: file)
        } catch {
            throw RuntimeError(error.description)
        }
        var run = DecodeRun(
            validator: FrameValidator(trustAddressParity: !strict),
            resolver: PositionResolver(receiver: receiver?.point, maxRangeKm: maxRangeKm),
            maximumLineBytes: reader.maximumLineBytes)
        while true {
            // Before waiting on a live stream, show what is decoded so far.
            if !reader.hasBufferedInput { try run.output.flush() }
            guard let next = reader.next() else { break }
            try run.take(next)
        }
        try run.output.flush()
        if let failure = reader.readFailure {
            throw RuntimeError("reading \(file == "-" ? "standard input" : file): \(failure)")
        }
        let counts = run.counts
        standardError(
            "aviator-adsb: decoded \(counts.decoded) of \(counts.lines) lines: \(counts.positions) positions, "
                + "\(counts.failedParity) failed parity, \(counts.malformed) malformed")
        if counts.decoded == 0 && counts.lines > 0 { throw ExitCode(1) }
    }
}

/// One `decode` run: each input line in turn parsed, checked, decoded with positions resolved
/// across the stream, and written as one JSON line; malformed lines reported on standard
/// error with their number.
struct DecodeRun {
    var validator: FrameValidator
    var resolver: PositionResolver
    /// The reader's line limit, for the report of an overlong line.
    let maximumLineBytes: Int
    let decoder = MessageDecoder()
    var output = LineWriter()
    var counts = (lines: 0, decoded: 0, malformed: 0, failedParity: 0, positions: 0)
    /// Whether an overlong line was reported already (later ones are only counted).
    var overlongReported = false

    /// Takes one line of input; output that cannot be written ends the run at once, with one
    /// error line.
    mutating func take(_ next: TextLineReader.Line) throws {
        counts.lines += 1
        guard let parsed = parse(next) else { return }
        let time = parsed.time ?? Double(counts.lines) * 0.01
        guard let frame = validator.validate(parsed.bits, time: time) else {
            counts.failedParity += 1
            var rejected = Message(df: parsed.bits.downlinkFormat, icao: CRC.syndrome(of: parsed.bits), crcOK: false)
            if [11, 17, 18].contains(rejected.df) { rejected.icao = UInt32(parsed.bits.field(9, 32)) }
            output.write(line: rejected.json(hex: parsed.bits.hex, time: parsed.time))
            try output.check()
            return
        }
        var message = decoder.decode(frame)
        resolver.resolve(&message, time: time)
        if message.latitude != nil { counts.positions += 1 }
        counts.decoded += 1
        output.write(line: message.json(hex: parsed.bits.hex, time: parsed.time))
        try output.check()
    }

    /// The line read as AVR, timestamped AVR, bare hex or CSV; nil, counted and reported, when
    /// it is none of them or too long.
    mutating func parse(_ next: TextLineReader.Line) -> MessageLine? {
        switch next {
        case .overlong(let bytes):
            counts.malformed += 1
            if !overlongReported {
                standardError(
                    "aviator-adsb: line \(counts.lines): \(bytes) bytes, over the \(maximumLineBytes)-byte limit (further overlong lines are counted only)"
                )
                overlongReported = true
            }
            return nil
        case .text(let text):
            switch MessageLine.parse(text[...]) {
            case .success(let value): return value
            case .failure(let problem):
                counts.malformed += 1
                standardError("aviator-adsb: line \(counts.lines): \(problem)")
                return nil
            }
        }
    }
}
