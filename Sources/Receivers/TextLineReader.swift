#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a text file, or standard input for "-", one line at a time without loading it all.
///
/// Memory stays bounded whatever the input: it reads in chunks of `chunkBytes`, and a line
/// longer than `maximumLineBytes` is not collected: its bytes are counted and dropped as
/// they stream past, and the line comes out as `.overlong`, so one enormous line (a file
/// of commas, a binary file given by mistake) costs no more memory than a short one.
package final class TextLineReader {
    /// Why a file could not be read.
    package struct OpenError: Error, CustomStringConvertible {
        /// The path that failed.
        package let path: String
        /// The system's reason.
        package let reason: String
        /// "cannot open PATH: reason".
        package var description: String { "cannot open \(path): \(reason)" }
    }

    /// One line of the input.
    package enum Line: Equatable, Sendable {
        /// A line within the limit, without its line ending (LF, CR LF or trailing CRs).
        case text(String)
        /// A line over the limit, dropped unread; `bytes` is its length without the LF.
        case overlong(bytes: Int)
    }

    /// The longest line kept by default, in bytes: far beyond any message format read here
    /// (a CSV row of a Mode S message is under 200 bytes).
    package static let defaultMaximumLineBytes = 4096
    /// How much is read from the file at a time.
    package static let chunkBytes = 1 << 16

    /// Lines longer than this many bytes (without the line ending) come out as `.overlong`.
    package let maximumLineBytes: Int
    /// The most bytes of one line ever held at once: never more than `maximumLineBytes`.
    package private(set) var largestLineBuffer = 0
    /// Why reading stopped early (the system's reason), or nil if the input simply ended.
    package private(set) var readFailure: String?

    private let descriptor: Int32
    private var chunk: [UInt8]
    private var start = 0, end = 0
    private var finished = false

    /// Opens `path`, or standard input when it is "-", keeping lines of up to
    /// `maximumLineBytes` bytes.
    package init(path: String, maximumLineBytes: Int = TextLineReader.defaultMaximumLineBytes) throws(OpenError) {
        self.maximumLineBytes = max(1, maximumLineBytes)
        chunk = [UInt8](repeating: 0, count: Self.chunkBytes)
        if path == "-" {
            // A duplicate descriptor: closing it leaves stdin alone.
            let copy = dup(STDIN_FILENO)
            guard copy >= 0 else {
                throw OpenError(path: "standard input", reason: String(cString: strerror(errno)))
            }
            descriptor = copy
            return
        }
        let opened = open(path, O_RDONLY | O_CLOEXEC)
        guard opened >= 0 else {
            throw OpenError(path: path, reason: String(cString: strerror(errno)))
        }
        var status = stat()
        if fstat(opened, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
            close(opened)
            throw OpenError(path: path, reason: "is a directory")
        }
        descriptor = opened
    }

    deinit {
        close(descriptor)
    }

    /// Whether input is already read and waiting, so that the next `nextLine()` can return
    /// without waiting on the file (a pipe or a terminal). A reader of a live stream flushes
    /// its own output when this is false.
    package var hasBufferedInput: Bool { start < end }

    /// The next line, or nil at the end of the input (or when reading fails: see
    /// `readFailure`). A last line without a line ending counts as a line.
    package func next() -> Line? {
        var line: [UInt8] = []
        var length = 0
        var sawAnything = false
        while true {
            if start == end {
                guard refill() else {
                    return sawAnything ? finish(line, length: length) : nil
                }
            }
            sawAnything = true
            let newline = chunk[start..<end].firstIndex(of: 0x0A)
            let stop = newline ?? end
            let piece = stop - start
            if length + piece <= maximumLineBytes {
                line.append(contentsOf: chunk[start..<stop])
                largestLineBuffer = max(largestLineBuffer, line.count)
            } else if !line.isEmpty {
                // Over the limit: nothing more of this line is kept.
                line = []
            }
            length += piece
            start = stop
            if newline != nil {
                start += 1
                return finish(line, length: length)
            }
        }
    }

    private func finish(_ line: [UInt8], length: Int) -> Line {
        guard length <= maximumLineBytes else { return .overlong(bytes: length) }
        var count = line.count
        while count > 0, line[count - 1] == 0x0D { count -= 1 }
        return .text(String(decoding: line[0..<count], as: UTF8.self))
    }

    /// Reads the next chunk; false at the end of the input or on a read error.
    private func refill() -> Bool {
        guard !finished else { return false }
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { readFailure = String(cString: strerror(errno)) }
            if count <= 0 {
                finished = true
                return false
            }
            start = 0
            end = count
            return true
        }
    }
}
