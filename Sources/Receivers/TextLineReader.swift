#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a text file, or standard input for "-", one line at a time without loading it all.
public final class TextLineReader {
    /// Why a file could not be read.
    public struct OpenError: Error, CustomStringConvertible {
        /// The path that failed.
        public let path: String
        /// The system's reason.
        public let reason: String
        /// "cannot open PATH: reason".
        public var description: String { "cannot open \(path): \(reason)" }
    }

    private let file: UnsafeMutablePointer<FILE>
    private var buffer: UnsafeMutablePointer<CChar>?
    private var capacity = 0

    /// Opens `path`, or standard input when it is "-".
    public init(path: String) throws(OpenError) {
        if path == "-" {
            // A private stream over a duplicate descriptor: closing it leaves stdin alone.
            guard let stream = fdopen(dup(STDIN_FILENO), "r") else {
                throw OpenError(path: "standard input", reason: String(cString: strerror(errno)))
            }
            file = stream
            return
        }
        guard let opened = fopen(path, "r") else {
            throw OpenError(path: path, reason: String(cString: strerror(errno)))
        }
        var status = stat()
        if fstat(fileno(opened), &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
            fclose(opened)
            throw OpenError(path: path, reason: "is a directory")
        }
        file = opened
    }

    deinit {
        free(buffer)
        fclose(file)
    }

    /// The next line without its line ending, or nil at the end of the input.
    public func nextLine() -> String? {
        let length = getline(&buffer, &capacity, file)
        guard length >= 0, let buffer else { return nil }
        var end = length
        while end > 0, buffer[end - 1] == 0x0A || buffer[end - 1] == 0x0D { end -= 1 }
        return buffer.withMemoryRebound(to: UInt8.self, capacity: end) {
            String(decoding: UnsafeBufferPointer(start: $0, count: end), as: UTF8.self)
        }
    }
}
