import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Splits a Beast binary stream (the format of dump1090/readsb port 30005) into frames.
///
/// A frame is 0x1A, a type byte, a 48-bit 12 MHz timestamp, one signal byte and the message
/// ('1': 2 bytes of Mode A/C, '2': 7 bytes of short Mode S, '3': 14 bytes of long Mode S).
/// Any 0x1A inside a frame is sent twice. A lone 0x1A inside a frame means the frame was cut
/// short: it is dropped and counted, and parsing resynchronises on that 0x1A as the start of
/// the next frame, so one damaged frame never costs the ones after it.
public struct BeastFrameParser: Sendable {
    /// One frame as received.
    public struct Received: Sendable, Equatable {
        /// The Mode S message (Mode A/C frames are skipped).
        public var bits: ModeSBits
        /// The sender's 12 MHz timestamp.
        public var timestamp: UInt64
        /// Signal level in dBFS from the sender's signal byte (√power scaled to 255).
        public var signalLevel: Double

        /// Whether the timestamp is the marker multilateration results carry instead of a
        /// time (the bytes FF 00 then "MLAT"): the frame was computed, not received.
        public var isMultilaterated: Bool { timestamp == BeastFrameParser.multilaterationMarker }
    }

    /// The timestamp that marks a frame as a multilateration result.
    public static let multilaterationMarker: UInt64 = 0xFF00_4D4C_4154

    private enum State: Sendable {
        case seekingStart
        case afterEscape  // saw 0x1A outside a frame: expecting a type byte
        case inFrame  // collecting body bytes
        case inFrameAfterEscape  // saw 0x1A inside a frame
    }

    private var state = State.seekingStart
    private var type: UInt8 = 0
    private var body = [UInt8]()
    private var bodyLength = 0
    /// Frames dropped as malformed (cut short, unknown type).
    public private(set) var malformed = 0
    /// Mode A/C frames skipped.
    public private(set) var modeACSkipped = 0
    /// Bytes outside any frame (before a first 0x1A, after a malformed frame, a doubled 0x1A
    /// between frames): skipped. A stream from a well-behaved sender has none after its start.
    public private(set) var strayBytes = 0

    /// Whether the bytes so far ended exactly at the end of a frame (or of nothing): no frame
    /// is half-read.
    public var isBetweenFrames: Bool {
        if case .seekingStart = state { return true }
        return false
    }

    /// A parser at the start of a stream.
    public init() {
        body.reserveCapacity(32)
    }

    /// Feeds `bytes`, calling `emit` for every complete Mode S frame.
    public mutating func parse(_ bytes: UnsafeRawBufferPointer, emit: (Received) -> Void) {
        for byte in bytes {
            switch state {
            case .seekingStart:
                if byte == 0x1A { state = .afterEscape } else { strayBytes += 1 }
            case .afterEscape:
                start(type: byte)
            case .inFrame:
                if byte == 0x1A { state = .inFrameAfterEscape } else { append(byte, emit: emit) }
            case .inFrameAfterEscape:
                if byte == 0x1A {
                    state = .inFrame
                    append(0x1A, emit: emit)
                } else {
                    // The frame was cut short; this byte is the type of a new one.
                    malformed += 1
                    start(type: byte)
                }
            }
        }
    }

    private mutating func start(type byte: UInt8) {
        let payload: Int
        switch byte {
        case 0x31: payload = 2
        case 0x32: payload = 7
        case 0x33: payload = 14
        case 0x1A:
            // Two escapes in a row outside a frame: stay ready for a type byte.
            strayBytes += 1
            state = .afterEscape
            return
        default:
            malformed += 1
            state = .seekingStart
            return
        }
        type = byte
        bodyLength = 6 + 1 + payload
        body.removeAll(keepingCapacity: true)
        state = .inFrame
    }

    private mutating func append(_ byte: UInt8, emit: (Received) -> Void) {
        body.append(byte)
        guard body.count == bodyLength else { return }
        state = .seekingStart
        guard type != 0x31 else {
            modeACSkipped += 1
            return
        }
        var timestamp: UInt64 = 0
        for index in 0..<6 { timestamp = timestamp << 8 | UInt64(body[index]) }
        let signal = Double(body[6]) / 255
        guard let bits = ModeSBits(bytes: body[7...]) else { return }
        let level = signal > 0 ? 20 * log10(signal) : -99
        emit(Received(bits: bits, timestamp: timestamp, signalLevel: level))
    }
}
