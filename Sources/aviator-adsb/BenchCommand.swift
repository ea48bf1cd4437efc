import ArgumentParser
import FoundationEssentials
import IQ
import ModeS
import ModeSDemod
import Receivers
import Simulator
import Support
import Tracking

/// `aviator-adsb bench`: throughput of the demodulator alone, on a recording held in memory
/// or on generated noise, so that disk and pipe speed do not enter the figure.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Throughput figures of the demodulator (mega-samples per second, one core).",
        discussion: """
            With FILE, the recording is read into memory and demodulated --repeat times; without \
            it, --seconds of generated receiver noise (4 LSB rms, cu8) with a DF17 reply every \
            millisecond are used. `make bench` compares the whole `demod` process with \
            dump1090-mutability on the same files.
            """)

    @Argument(help: "An IQ recording (format from --format or the extension); none: generated data.")
    var file: String?

    @Option(help: "Sample format of FILE: cu8, cs16 (sc16) or cf32.")
    var format: SampleFormat?

    @Option(name: .customLong("sample-rate"), help: "Sample rate: 2.4M (default) or 2.0M.")
    var sampleRate: SampleRate = .twoPointFourMega

    @Option(help: "Seconds of generated data when no FILE is given.")
    var seconds: Double = 10

    @Option(name: .customLong("repeat"), help: "How many times to demodulate the data; the best run is reported.")
    var runs: Int = 3

    func validate() throws {
        guard runs >= 1 else { throw ValidationError("--repeat must be at least 1") }
        if file == nil {
            guard seconds > 0, seconds <= 600 else { throw ValidationError("--seconds must be in (0, 600]") }
            if let format, format != .cu8 { throw ValidationError("generated data is cu8 only") }
        }
    }

    func run() throws {
        let input = DemodCommand.resolve(file: file ?? "generated.cu8", format: format, sampleRate: sampleRate)
        let bytes: [UInt8]
        if let file {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw RuntimeError("cannot read \(file)")
            }
            bytes = [UInt8](data)
        } else {
            bytes = Self.generate(samples: Int(seconds * Double(input.rate.hertz)), rate: input.rate)
        }
        let samples = bytes.count / input.format.bytesPerSample
        guard samples > 0 else { throw RuntimeError("no samples to demodulate") }
        var best = Double.infinity
        var frames = 0
        let clock = ContinuousClock()
        for _ in 0..<runs {
            let demodulator = StreamingDemodulator(format: input.format, sampleRate: input.rate)
            var count = 0
            let elapsed = clock.measure {
                bytes.withUnsafeBytes { raw in
                    // Standard blocks, as the file reader and a dongle deliver them.
                    var offset = 0
                    while offset < raw.count {
                        let end = min(raw.count, offset + IQBlock.standardByteCount)
                        demodulator.process(UnsafeRawBufferPointer(rebasing: raw[offset..<end])) { _ in count += 1 }
                        offset = end
                    }
                    demodulator.finish { _ in count += 1 }
                }
            }
            let seconds = elapsed.inSeconds
            best = min(best, seconds)
            frames = count
        }
        let duration = Double(samples) / Double(input.rate.hertz)
        var output = LineWriter()
        output.write(
            line:
                "bench: \(samples) samples (\(DecimalText.fixed(duration, places: 1)) s at \(DecimalText.fixed(Double(input.rate.hertz) / 1e6, places: 1)) MS/s \(input.format.rawValue)), \(frames) frames"
        )
        output.write(
            line:
                "bench: demodulator \(DecimalText.fixed(Double(samples) / best / 1e6, places: 1)) MS/s (best of \(runs)), \(DecimalText.fixed(duration / best, places: 1))x real time"
        )
        try output.flush()
    }

    /// Receiver noise (complex Gaussian, 4 LSB rms) in cu8 with a clean
    /// DF17 reply every millisecond: the bulk of a real stream is noise, which is where a
    /// demodulator spends its time.
    static func generate(samples: Int, rate: SampleRate) -> [UInt8] {
        let signal = RectangularSignal(sampleRate: rate, sampleCount: samples, seed: 0x9E37_79B9_7F4A_7C15)
        let reply = RectangularSignal.extendedSquitter(address: 0x4840D6, payload: 0x20_2CC3_71C3_2CE0)
        let period = rate.hertz / 1000
        let bursts = stride(from: period / 2, to: samples - period, by: period).map {
            RectangularSignal.Burst(bits: reply, start: Double($0), amplitude: 40)
        }
        return signal.bytes(bursts, format: .cu8)
    }
}
