#if canImport(Glibc)
    import Glibc
#endif

/// Every failure of a command that is not about its arguments (those are `ValidationError`,
/// exit 64 with a usage hint): a missing file, a port in use, no dongle, a full disk under
/// standard output. ArgumentParser prints it as one `Error:` line, without usage, and exits
/// with status 1.
struct RuntimeError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Writes one line to standard error. A failure is ignored: there is nowhere left to say so.
func standardError(_ line: String) {
    var text = line
    text.append("\n")
    text.withUTF8 { bytes in _ = writeAll(2, UnsafeRawBufferPointer(bytes)) }
}

/// Writes all of `bytes` to file descriptor `fd`, retrying short and interrupted writes.
/// Returns 0 when everything was written, else the `errno` of the write that failed (a
/// write that makes no progress counts as `EIO`), so no caller can lose output silently.
func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
    guard let base = bytes.baseAddress else { return 0 }
    var offset = 0
    while offset < bytes.count {
        let written = write(fd, base + offset, bytes.count - offset)
        if written < 0 && errno == EINTR { continue }
        if written < 0 { return errno }
        if written == 0 { return EIO }
        offset += written
    }
    return 0
}
