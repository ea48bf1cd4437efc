import ArgumentParser
import IQ
import ModeS
import ModeSDemod
import Receivers
import Support
import Tracking

#if canImport(Glibc)
    import Glibc
#endif

/// `aviator-adsb demod`: frames from an IQ file as AVR lines.
struct DemodCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demod",
        abstract: "Frames from an IQ file as AVR lines (*HEX;), with a summary on stderr.",
        discussion: "Output that cannot be written (a full disk) stops the command with status 1 and one error line.")

    @Argument(help: "The IQ recording to read, or - for standard input.")
    var file: String

    @Option(help: "Sample format: cu8, cs16 (sc16) or cf32. Default: from the file extension, else cu8.")
    var format: SampleFormat?

    @Option(name: .customLong("sample-rate"), help: "Sample rate: 2.4M (default) or 2.0M; also 2400000 or 2.4.")
    var sampleRate: SampleRate = .twoPointFourMega

    @Flag(help: "Prefix each line with the frame's 12 MHz timestamp, as @TTTTTTTTTTTTHEX; (AVR with MLAT).")
    var mlat = false

    /// Tuning knobs, hidden from --help: used by scripts/bench.sh to measure each technique.
    @Option(help: .hidden) var gate: Int32?
    @Option(help: .hidden) var gateQuiet: Int32?
    @Option(help: .hidden) var preamble: Int32?
    @Option(help: .hidden) var phases: Int?
    @Option(help: .hidden) var quiet: Int32?
    @Option(help: .hidden) var inside: Int32?
    @Option(help: .hidden) var repairRank: Int?
    @Flag(help: .hidden) var skipWholeFrames = false
    @Flag(help: .hidden) var noTwoBitRepair = false
    @Flag(help: .hidden) var noThreeBitRepair = false
    @Flag(help: .hidden) var noAddressParityRepair = false
    @Flag(help: .hidden) var noFeedback = false
    @Flag(help: .hidden) var noSequence = false
    @Flag(help: .hidden) var noCoherent = false
    @Flag(help: .hidden) var noChannelFit = false
    @Flag(help: .hidden) var noFirmness = false
    @Flag(help: .hidden) var anyInterrogatorCode = false
    @Flag(help: .hidden) var noKnownAddressCodes = false
    @Flag(
        inversion: .prefixedNo,
        help:
            "Subtract each frame that overlaps another signal and look for the reply beneath it (as the daemon does): about a tenth more frames in a dense sky and three times as many near the noise (the channel fit needs the samples it keeps), for about two thirds more CPU time."
    )
    var cancelOverlaps = true

    /// The demodulator options after the hidden tuning knobs.
    var demodulatorOptions: StreamingDemodulator.Options {
        var options = StreamingDemodulator.Options()
        if let gate { options.gateSixteenths = gate }
        if let gateQuiet { options.gateQuietSixteenths = gateQuiet >= 16 ? nil : gateQuiet }
        if let preamble { options.preambleSixteenths = preamble }
        if let phases { options.maximumPhases = max(1, min(5, phases)) }
        if let quiet { options.quietToPulseSixteenths = quiet }
        if let inside { options.insideStrengthSixteenths = inside }
        if let repairRank { options.repairRankLimit = repairRank }
        if skipWholeFrames { options.searchInsideFrames = false }
        if noTwoBitRepair { options.allowTwoBitCorrection = false }
        if noThreeBitRepair { options.threeBitRepairs = false }
        if noAddressParityRepair { options.addressParityRepairs = false }
        if noFeedback { options.feedbackRetry = false }
        if noSequence { options.sequenceRetry = false }
        if noCoherent { options.coherentRetry = false }
        if noChannelFit { options.channelFit = false }
        if noFirmness { options.addressParityFirmness = false }
        if anyInterrogatorCode { options.confirmInterrogatorCodes = false }
        if noKnownAddressCodes { options.knownAddressInterrogatorCodes = false }
        options.cancelOverlaps = cancelOverlaps
        return options
    }

    @Flag(help: "Also print, on stderr, each frame's sample index, signal level and repaired bits.")
    var verbose = false

    /// The demodulator's settings for a file (shared with `bench`).
    struct Input {
        var format: SampleFormat
        var rate: SampleRate
    }

    func run() throws {
        let input = Self.resolve(file: file, format: format, sampleRate: sampleRate)
        let reader: IQFileReader
        do {
            reader = try IQFileReader(path: file)
        } catch {
            throw RuntimeError(error.description)
        }
        let demodulator = StreamingDemodulator(
            format: input.format, sampleRate: input.rate,
            options: demodulatorOptions)
        var output = LineWriter()
        let verbose = self.verbose
        let ticksPerSample = 12e6 / Double(input.rate.hertz)
        let mlat = self.mlat
        func emit(_ frame: Frame) {
            output.writeAVR(frame, timestamp: mlat)
            if verbose {
                let sample = Double(frame.timestamp) / ticksPerSample
                standardError(
                    "frame at sample \(DecimalText.fixed(sample, places: 1)): \(frame.bits.hex) \(DecimalText.fixed(frame.signalLevel, places: 1)) dBFS, \(frame.correctedBits) bits repaired"
                )
            }
        }
        let clock = ContinuousClock()
        let started = clock.now
        let summary: IQFileReader.Summary
        do {
            summary = try reader.forEachBlock { block in
                demodulator.process(block) { emit($0) }
                // Output that cannot be written ends the run at once, not at the end of the file.
                try output.check()
            }
        } catch let error as RuntimeError {
            throw error
        } catch {
            // The input's failure is the one to report; the output gets what was decoded.
            try? output.flush()
            throw RuntimeError("\(error)")
        }
        let leftover = demodulator.finish { emit($0) }
        try output.flush()
        let elapsed = clock.now - started
        let stats = demodulator.statistics
        if summary.bytes == 0 { throw RuntimeError("\(file) is empty: no samples to demodulate") }
        if stats.samples == 0 {
            throw RuntimeError("\(file) holds \(summary.bytes) bytes, less than one \(input.format.rawValue) sample")
        }
        printSummary(stats, rate: input.rate, elapsed: elapsed)
        if leftover > 0 {
            standardError(
                "error: \(file) ends with a truncated sample (\(leftover) stray byte\(leftover == 1 ? "" : "s") of a \(input.format.bytesPerSample)-byte \(input.format.rawValue) sample ignored)"
            )
        }
    }

    /// The sample format and rate for `file`: `--format` when given, else the one its name
    /// implies, else cu8.
    static func resolve(file: String, format: SampleFormat?, sampleRate: SampleRate) -> Input {
        Input(format: format ?? SampleFormat(fileName: file) ?? .cu8, rate: sampleRate)
    }

    private func printSummary(_ stats: DemodulatorStatistics, rate: SampleRate, elapsed: Duration) {
        let seconds = elapsed.inSeconds
        let duration = Double(stats.samples) / Double(rate.hertz)
        let speed = seconds > 0 ? Double(stats.samples) / seconds / 1e6 : 0
        standardError(
            "demod: \(stats.samples) samples, \(DecimalText.fixed(duration, places: 3)) s at \(DecimalText.fixed(Double(rate.hertz) / 1e6, places: 1)) MS/s, processed at \(DecimalText.fixed(speed, places: 1)) MS/s"
        )
        let perFormat = stats.framesPerFormat.enumerated().filter { $0.element > 0 }
            .map { "DF\($0.offset) \($0.element)" }.joined(separator: ", ")
        if verbose {
            standardError(
                "demod: \(stats.candidates) candidates, \(stats.shadowStarts) shadows of a stronger preamble, \(stats.unevenStarts) with one pair of preamble pulses nearly empty, \(stats.quietTailStarts) quiet after 27 µs, \(stats.quietHeadStarts) quiet from 8 to 27 µs, \(stats.attempts) slicing attempts, \(stats.duplicates) duplicates"
            )
        }
        standardError(
            "demod: \(stats.frames) frames\(perFormat.isEmpty ? "" : " (\(perFormat))"), \(stats.correctedFrames) corrected, \(stats.recoveredFromOverlaps) recovered from under a stronger reply"
        )
        if verbose {
            standardError("demod: \(stats.cancellations) frames cancelled to look beneath them")
            standardError(
                "demod: \(stats.squitterMismatches) replies refused for disagreeing with their aircraft's squitters")
            standardError("demod: \(stats.collisionRepairs) squitters repaired where another pulse hit a bit")
            standardError("demod: \(stats.allCallRepairs) all-call replies repaired for one wrong bit")
            standardError("demod: \(stats.coherentAttempts) coherent attempts, \(stats.coherentFrames) frames")
            standardError(
                "demod: \(stats.channelFitAttempts) channel-fit attempts, \(stats.channelFitFrames) frames (\(stats.restartedChannelFitFrames) from a later start), \(stats.codesConfirmedByChannelFit) station codes confirmed, \(stats.codesOverruledByChannelFit) overruled"
            )
            standardError(
                "demod: \(stats.codesTurnedByFollower) all-call replies refused for a code the next reply turned")
        }
    }
}
