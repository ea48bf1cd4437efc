import FoundationEssentials
import IQ
import Logging
import ModeSDemod
import NIOCore
import NIOPosix
import Pipeline
import Synchronization

/// Receives from a dongle that `rtl_tcp` serves on another machine (or in a container): the
/// same samples as a local dongle, over TCP, demodulated here.
///
/// rtl_tcp's protocol: the server greets with 12 bytes ("RTL0", the tuner type and its number
/// of gains, big-endian), takes 5-byte commands (a command byte and a big-endian 32-bit
/// argument) and otherwise streams unsigned 8-bit IQ pairs. The network thread only copies
/// bytes into a `SampleRing`; a thread of its own demodulates, as for a local dongle. The
/// connection is retried with backoff (1 s doubling to 30 s) when it fails or ends, and
/// given up as lost when no sample arrives for `readTimeout` (a server streams without a
/// pause).
package final class RTLTCPSource: Source {
    /// Why a server is not usable; one line for the log.
    package struct ProtocolError: Error, CustomStringConvertible {
        /// What was wrong.
        package let description: String
    }

    /// The server's greeting.
    package struct Greeting: Sendable, Equatable {
        /// The tuner type rtl_tcp reports (1 E4000, 5 R820T, …).
        package var tunerType: UInt32
        /// How many gain steps the tuner has.
        package var gainCount: UInt32

        /// The greeting's size on the wire.
        package static let size = 12

        /// Reads a greeting from its 12 bytes; throws when they are not rtl_tcp's.
        package init(_ bytes: some Collection<UInt8>) throws(ProtocolError) {
            let bytes = Array(bytes)
            guard bytes.count == Self.size, bytes.starts(with: Array("RTL0".utf8)) else {
                throw ProtocolError(description: "not an rtl_tcp server (its first bytes are not \"RTL0\")")
            }
            func word(_ at: Int) -> UInt32 { bytes[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) } }
            tunerType = word(4)
            gainCount = word(8)
        }
    }

    /// rtl_tcp's commands used here.
    enum Command: UInt8 {
        case frequency = 0x01
        case sampleRate = 0x02
        case gainMode = 0x03
        case gain = 0x04
        case frequencyCorrection = 0x05

        /// The 5 bytes of this command with `argument`.
        func bytes(_ argument: UInt32) -> [UInt8] {
            [
                rawValue, UInt8(argument >> 24), UInt8(argument >> 16 & 0xFF), UInt8(argument >> 8 & 0xFF),
                UInt8(argument & 0xFF)
            ]
        }
    }

    /// "rtl-tcp", the radar's source name while a served dongle feeds it.
    package let name = "rtl-tcp"
    /// "rtltcp HOST:PORT".
    package var label: String { "rtltcp \(BeastInput.endpointText(host, port))" }
    /// The server's host.
    package let host: String
    /// The server's port.
    package let port: Int
    /// Frequency, sample rate, gain and correction asked of the server (the selector is not used).
    package let configuration: RTLSDRDevice.Configuration
    /// How the samples are demodulated.
    package let demodulatorOptions: StreamingDemodulator.Options
    private let logger: Logger
    private let maximumBackoff: Duration
    /// How long the connection may stay silent before it counts as lost.
    package let readTimeout: TimeAmount
    /// Drops of earlier connections, and the ring of the current one.
    private let dropped = RingDrops()
    private let connections = Mutex(0)

    /// A source reading `host:port`, asking for `configuration`'s settings.
    package init(
        host: String, port: Int, configuration: RTLSDRDevice.Configuration = .init(),
        demodulatorOptions: StreamingDemodulator.Options = .init(), logger: Logger,
        maximumBackoff: Duration = .seconds(30), readTimeout: TimeAmount = .seconds(15)
    ) {
        self.host = host
        self.port = port
        self.configuration = configuration
        self.demodulatorOptions = demodulatorOptions
        self.logger = logger
        self.maximumBackoff = maximumBackoff
        self.readTimeout = readTimeout
    }

    /// Sample bytes lost because demodulation fell behind, since the start.
    package var droppedBytes: Int { dropped.bytes }

    /// Connections made so far.
    package var connectionCount: Int { connections.withLock { $0 } }

    /// The commands that set the server up, in the order sent, before its greeting is known.
    var setupCommands: [[UInt8]] { setupCommands(startingGain: nil) }

    /// The commands that set the server up, in the order sent; an adaptive gain starts at
    /// `startingGain` (the highest common gain within its bounds when nil).
    func setupCommands(startingGain: Double?) -> [[UInt8]] {
        var commands = [
            Command.sampleRate.bytes(UInt32(configuration.sampleRate)),
            Command.frequency.bytes(UInt32(configuration.frequency)),
            Command.frequencyCorrection.bytes(UInt32(bitPattern: Int32(clamping: configuration.ppm)))
        ]
        switch configuration.gain {
        case .automatic:
            commands.append(Command.gainMode.bytes(0))
        case .decibels(let decibels):
            commands += Self.fixedGain(decibels)
        case .adaptive(let start, let bounds, _):
            commands += Self.fixedGain(startingGain ?? start ?? min(bounds.upperBound, Self.highestCommonGain))
        }
        return commands
    }

    /// The highest gain of the common tuners (R820T, R828D), dB.
    static let highestCommonGain = 49.6

    /// The adaptive gain for a server with `greeting`'s tuner, when the configuration asks for
    /// one and the tuner's steps are known (a line says so when they are not); its moves are
    /// sent with `send`.
    private func adaptiveGain(
        for greeting: Greeting, rate: SampleRate, send: @escaping @Sendable ([UInt8]) -> Void
    ) -> AdaptiveGain? {
        guard case .adaptive(let start, let bounds, let memory) = configuration.gain else { return nil }
        guard let steps = TunerGainTable.steps(tunerType: greeting.tunerType) else {
            logger.notice(
                "\(label): the server's tuner (type \(greeting.tunerType)) has gains this daemon does not know; the gain stays fixed (set --gain)"
            )
            return nil
        }
        let controller = GainController(steps: steps, bounds: bounds, start: memory?.load(logger: logger) ?? start)
        let logger = self.logger
        return AdaptiveGain(
            controller: controller, sampleRate: Double(rate.hertz), logger: logger,
            setGain: { wanted in
                for command in Self.fixedGain(wanted).dropFirst() { send(command) }
                return wanted
            },
            settled: { gain in memory?.save(gain, logger: logger) })
    }

    /// rtl_tcp's commands for a fixed gain: it picks the tuner gain nearest to this, in tenths
    /// of a dB (no tuner has more than 100 dB: a larger or non-finite value is sent as the
    /// nearest sane one).
    private static func fixedGain(_ decibels: Double) -> [[UInt8]] {
        let tenths = decibels.isFinite ? min(max((decibels * 10).rounded(), 0), 1_000) : 0
        return [Command.gainMode.bytes(1), Command.gain.bytes(UInt32(tenths))]
    }

    /// Connects and streams until the task is cancelled, reconnecting as needed.
    package func run(into sink: any FrameSink) async throws {
        guard let rate = SampleRate(rawValue: configuration.sampleRate) else {
            throw ProtocolError(description: "unsupported sample rate \(configuration.sampleRate)")
        }
        await Reconnecting(label: label, maximumBackoff: maximumBackoff, logger: logger).run {
            try await stream(rate: rate, into: sink)
        }
    }

    /// One connection: connects, demodulates what the server streams until it ends, and
    /// throws when it ends in an error or before the server's greeting.
    private func stream(rate: SampleRate, into sink: any FrameSink) async throws {
        let channel = try await connect()
        connections.withLock { $0 += 1 }
        let ring = SampleRing()
        dropped.begin(ring)
        // The adaptive gain, once the greeting has said which tuner the server has.
        let gain = AdaptiveGainSlot()
        // The demodulator runs on a thread of its own until the ring is closed and drained.
        async let demodulated: Void = Self.demodulate(
            ring: ring, rate: rate, options: demodulatorOptions, into: sink, label: label, gain: gain,
            logger: logger)
        defer { ring.close() }
        var greeting: [UInt8] = []
        // Network reads are small; they are gathered into blocks of a ring slot's size so the
        // ring's few slots hold a useful length of signal.
        var block: [UInt8] = []
        block.reserveCapacity(SampleRing.defaultSlotSize)
        do {
            try await channel.executeThenClose { inbound, outbound in
                for try await var buffer in inbound {
                    if greeting.count < Greeting.size {
                        greeting +=
                            buffer.readBytes(length: min(Greeting.size - greeting.count, buffer.readableBytes)) ?? []
                        guard greeting.count == Greeting.size else { continue }
                        let server = try Greeting(greeting)
                        let adaptive = adaptiveGain(for: server, rate: rate) { command in
                            Task { try? await outbound.write(ByteBuffer(bytes: command)) }
                        }
                        try await setUp(server, rate: rate, startingGain: adaptive?.gain, outbound: outbound)
                        gain.value = adaptive
                    }
                    Self.gather(buffer, into: &block, ring: ring)
                }
            }
        } catch {
            ring.close()
            await demodulated
            dropped.end()
            throw error
        }
        if !block.isEmpty { block.withUnsafeBytes { ring.push($0) } }
        ring.close()
        await demodulated
        dropped.end()
        if greeting.count < Greeting.size {
            throw ProtocolError(description: "the server closed the connection before its greeting")
        }
    }

    /// A connection to the server, its reads timed out after `readTimeout`.
    private func connect() async throws -> NIOAsyncChannel<ByteBuffer, ByteBuffer> {
        try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(5))
            .connect(host: host, port: port) { [readTimeout] channel in
                channel.eventLoop.makeCompletedFuture {
                    try ReadTimeout.install(on: channel, limit: readTimeout)
                    return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
    }

    /// Logs the `server`'s greeting and sends it the commands that set it up.
    private func setUp(
        _ server: Greeting, rate: SampleRate, startingGain: Double?, outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    ) async throws {
        logger.info(
            "\(label): connected (tuner type \(server.tunerType), \(server.gainCount) gains); asking for \(Double(rate.hertz) / 1e6) MS/s at \(Double(configuration.frequency) / 1e6) MHz"
        )
        for command in setupCommands(startingGain: startingGain) {
            try await outbound.write(ByteBuffer(bytes: command))
        }
    }

    /// Appends `buffer`'s bytes to `block`, pushing it into `ring` each time it fills a slot.
    private static func gather(_ buffer: ByteBuffer, into block: inout [UInt8], ring: SampleRing) {
        buffer.withUnsafeReadableBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let take = min(bytes.count - offset, SampleRing.defaultSlotSize - block.count)
                block.append(contentsOf: bytes[offset..<offset + take])
                offset += take
                if block.count == SampleRing.defaultSlotSize {
                    block.withUnsafeBytes { ring.push($0) }
                    block.removeAll(keepingCapacity: true)
                }
            }
        }
    }

    /// Drains `ring` through a demodulator on a thread of its own; returns when it is closed
    /// and empty.
    private static func demodulate(
        ring: SampleRing, rate: SampleRate, options: StreamingDemodulator.Options,
        into sink: any FrameSink, label: String, gain: AdaptiveGainSlot, logger: Logger
    ) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DedicatedThread.start(name: "rtltcp-demod") {
                let stream = SampleStream(format: .cu8, sampleRate: rate, options: options, into: sink, label: label)
                stream.logLevelChanges(to: logger)
                stream.drain(ring) { gain.value }
                continuation.resume()
            }
        }
    }
}
