import FoundationEssentials
import Logging
import Support

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The gain the adaptive gain last settled on, kept in the state directory (file `gain`, one
/// number of dB and a newline), so that the next start begins there instead of searching from
/// the highest gain.
///
/// The file is the daemon's own but lies on disk: anything but one number of dB within the
/// range a tuner has is ignored (with one line in the log) and the search starts afresh.
/// Writing goes to a temporary file renamed over the old one, so a crash leaves the old value
/// or the new, never half of one.
package struct GainMemory: Sendable, Equatable {
    /// The file.
    package let path: String
    /// Its directory, made (private to the user) when missing.
    package let directory: String

    /// The memory in `directory`'s file `gain`.
    package init(directory: String) {
        self.directory = directory
        path = directory.hasSuffix("/") ? directory + "gain" : directory + "/gain"
    }

    /// The remembered gain, dB; nil when there is none or the file is not one we wrote.
    package func load(logger: Logger) -> Double? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var buffer = [UInt8](repeating: 0, count: 33)
        let count = fread(&buffer, 1, 33, file)
        let text = String(String(decoding: buffer.prefix(count), as: UTF8.self).trimmingWhitespace())
        guard count < 33, let gain = Double(text), (-10...60).contains(gain) else {
            logger.notice("adaptive gain: ignoring \(path): not a gain in dB; searching from the highest gain")
            return nil
        }
        return gain
    }

    /// Remembers `gain`; a failure is logged, never fatal (the next start just searches).
    package func save(_ gain: Double, logger: Logger) {
        try? FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let temporary = path + ".new"
        let text = DecimalText.fixed(gain, places: 1) + "\n"
        guard let file = fopen(temporary, "w") else {
            logger.notice("adaptive gain: cannot remember the gain in \(path): \(String(cString: strerror(errno)))")
            return
        }
        let written = text.utf8CString.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count - 1, file) }
        let closed = fclose(file)
        guard written == text.utf8.count, closed == 0, rename(temporary, path) == 0 else {
            logger.notice("adaptive gain: cannot remember the gain in \(path): \(String(cString: strerror(errno)))")
            unlink(temporary)
            return
        }
    }
}
