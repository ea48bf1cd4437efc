#if canImport(Glibc)
import Glibc
#endif

/// Every failure of a command that is not about its arguments (those are `ValidationError`,
/// exit 64 with a usage hint): a missing file, a port in use, no dongle. ArgumentParser
/// prints it as one `Error:` line, without usage, and exits with status 1.
struct RuntimeError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Writes one line to standard error.
func standardError(_ line: String) {
    var text = line
    text.append("\n")
    text.withUTF8 { bytes in writeAll(2, UnsafeRawBufferPointer(bytes)) }
}

/// Writes all of `bytes` to file descriptor `fd`, retrying short writes; gives up quietly
/// when the reader has gone (a closed pipe).
func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) {
    var offset = 0
    while offset < bytes.count {
        let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
        if written < 0 && errno == EINTR { continue }
        if written <= 0 { return }
        offset += written
    }
}
