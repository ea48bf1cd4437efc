import ModeS

#if canImport(Glibc)
    import Glibc
#endif

/// Standard output for the commands that print results (`decode`, `demod`, `bench`,
/// `radar --once`): lines are buffered and written in large pieces, and every write is
/// checked. The first failure (a full disk, an I/O error) is kept and turned into a
/// `RuntimeError` by `flush()` or `check()`, so a command whose output was lost ends with
/// status 1 and says why instead of claiming success. A pipe whose reader has gone (`| head`)
/// ends the process by SIGPIPE before, silently, as it ends any filter in a pipeline.
struct LineWriter {
    private var buffer: [UInt8] = []
    /// The `errno` of the first failed write; nothing more is written after it.
    private(set) var failure: Int32?
    /// The file descriptor written to.
    let descriptor: Int32
    /// Bytes buffered before they are written.
    static let chunk = 1 << 16

    /// A writer to `descriptor`, standard output by default.
    init(descriptor: Int32 = 1) {
        self.descriptor = descriptor
        buffer.reserveCapacity(Self.chunk)
    }

    /// Appends `line` and a newline.
    mutating func write(line: String) {
        buffer.append(contentsOf: line.utf8)
        buffer.append(0x0A)
        if buffer.count >= Self.chunk { writeBuffer() }
    }

    /// Appends the AVR line for `frame` (`*HEX;`, or `@TTTTTTTTTTTTHEX;` with its 12 MHz
    /// timestamp), as `AVREncoder` writes it.
    mutating func writeAVR(_ frame: Frame, timestamp: Bool = false) {
        AVREncoder.append(frame.bits, timestamp: timestamp ? frame.timestamp : nil, to: &buffer)
        if buffer.count >= Self.chunk { writeBuffer() }
    }

    /// Throws the first write failure so far, if any, without writing what is buffered:
    /// lets a long command stop as soon as its output is known to be lost.
    func check() throws(RuntimeError) {
        if let failure { throw Self.error(failure) }
    }

    /// Writes out what is buffered; throws if this or any earlier write failed.
    mutating func flush() throws(RuntimeError) {
        writeBuffer()
        try check()
    }

    private mutating func writeBuffer() {
        defer { buffer.removeAll(keepingCapacity: true) }
        guard failure == nil, !buffer.isEmpty else { return }
        let code = buffer.withUnsafeBytes { writeAll(descriptor, $0) }
        if code != 0 { failure = code }
    }

    /// The one-line error for a failed write with `errno` `code`.
    static func error(_ code: Int32) -> RuntimeError {
        RuntimeError("writing standard output: \(String(cString: strerror(code)))")
    }
}
