#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads an IQ recording, from a file or from standard input (`-`), block by block into one
/// reused buffer, so any length of recording streams through in constant memory.
package final class IQFileReader {
    /// Why a recording could not be read.
    package struct ReadError: Error, CustomStringConvertible, Sendable {
        /// One line saying what went wrong, naming the file.
        package let description: String

        /// An error saying `description`.
        package init(description: String) {
            self.description = description
        }
    }

    /// What the reader saw once the input was exhausted.
    package struct Summary: Sendable {
        /// Bytes read in total.
        package var bytes: Int
    }

    /// The path as given (`-` for standard input).
    package let path: String
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private let blockSize: Int
    private let buffer: UnsafeMutableRawPointer

    /// Opens `path` (`-` is standard input) for reading in blocks of `blockSize` bytes (by
    /// default a standard block, as a dongle delivers them).
    package init(path: String, blockSize: Int = IQBlock.standardByteCount) throws(ReadError) {
        self.path = path
        self.blockSize = max(1, blockSize)
        if path == "-" {
            descriptor = 0
            ownsDescriptor = false
        } else {
            // Without O_NONBLOCK, opening a FIFO waits for a writer, and nothing could stop
            // that wait. Reads block again afterwards: `forEachBlock` waits in poll instead.
            let fd = open(path, O_RDONLY | O_NONBLOCK)
            guard fd >= 0 else {
                throw ReadError(description: "cannot open \(path): \(Self.errorText())")
            }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
            var info = stat()
            if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
                close(fd)
                throw ReadError(description: "cannot read \(path): it is a directory")
            }
            descriptor = fd
            ownsDescriptor = true
        }
        buffer = .allocate(byteCount: self.blockSize, alignment: 16)
    }

    deinit {
        buffer.deallocate()
        if ownsDescriptor { close(descriptor) }
    }

    /// How long one wait for input lasts before `isCancelled` is asked again.
    static let pollMilliseconds: Int32 = 100

    /// Reads the whole input, handing each block to `body` in order: whole blocks, however
    /// the input hands its bytes over, and what is left at its end. While no input is
    /// ready (a pipe or FIFO whose writer is slow or absent), asks `isCancelled` every
    /// tenth of a second and throws `CancellationError` once it says yes, so a replay can
    /// always be stopped.
    package func forEachBlock(
        isCancelled: () -> Bool = { false },
        _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws -> Summary {
        var total = 0
        // Bytes of the block being gathered: a pipe hands over what it holds (64 kB at most),
        // and a paced replay's ring keeps a slot per block, so a stream of small pieces would
        // fill it with a fraction of the samples a dongle's blocks bring.
        var filled = 0
        while true {
            var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&waiting, 1, Self.pollMilliseconds)
            if isCancelled() { throw CancellationError() }
            if ready < 0 {
                if errno == EINTR { continue }
                throw ReadError(description: "cannot wait for \(path): \(Self.errorText())")
            }
            if ready == 0 { continue }
            let count = read(descriptor, buffer + filled, blockSize - filled)
            if count < 0 {
                if errno == EINTR { continue }
                throw ReadError(description: "cannot read \(path): \(Self.errorText())")
            }
            if count == 0 { break }
            total += count
            filled += count
            if filled == blockSize {
                try body(UnsafeRawBufferPointer(start: buffer, count: filled))
                filled = 0
            }
        }
        if filled > 0 { try body(UnsafeRawBufferPointer(start: buffer, count: filled)) }
        return Summary(bytes: total)
    }

    private static func errorText() -> String {
        String(cString: strerror(errno))
    }
}
