#if canImport(Glibc)
    import Glibc
#endif

/// On x86-64 the demodulator is compiled for processors with SSE4.2 and POPCNT (see
/// Package.swift). On an older processor it would stop at its first sample with "Illegal
/// instruction"; this check says why at start instead, before any command runs.
enum ProcessorCheck {
    /// The `/proc/cpuinfo` flags the demodulator's instructions need: the `nehalem` set.
    static let requiredFlags = ["ssse3", "sse4_1", "sse4_2", "popcnt", "cx16", "lahf_lm"]

    /// Whether this build needs the check: only x86-64 builds made without
    /// `AVIATOR_ADSB_GENERIC_CPU` carry instructions beyond the architecture's baseline,
    /// which the build cannot tell the code; it assumes the usual build.
    static var applies: Bool {
        #if arch(x86_64)
            true
        #else
            false
        #endif
    }

    /// The required flags missing from the `flags` line of `cpuinfo` (the text of
    /// `/proc/cpuinfo`); empty when every one is there or when the text names no flags at all
    /// (a kernel that hides them: nothing to go by, so the binary is given its chance).
    static func missingFlags(cpuinfo: String) -> [String] {
        guard
            let line = cpuinfo.split(separator: "\n").first(where: {
                $0.hasPrefix("flags") && $0.contains(":")
            })
        else { return [] }
        let present = Set(line.split(separator: ":", maxSplits: 1)[1].split(separator: " ").map(String.init))
        return requiredFlags.filter { !present.contains($0) }
    }

    /// The error line for a processor without `missing`.
    static func message(missing: [String]) -> String {
        "Error: this processor lacks \(missing.joined(separator: ", ")), which this build of aviator-adsb needs "
            + "(every x86-64 processor made since about 2010 has them); build it with "
            + "AVIATOR_ADSB_GENERIC_CPU=1 make release for any x86-64 processor."
    }

    /// Exits with status 1 and one error line when this processor cannot run the build.
    static func exitUnlessSupported() {
        guard applies, let text = readSmallFile("/proc/cpuinfo") else { return }
        let missing = missingFlags(cpuinfo: text)
        guard !missing.isEmpty else { return }
        standardError(message(missing: missing))
        exit(1)
    }

    /// The text of a small file (at most 1 MB, enough for the first processor's entry), or
    /// nil when it cannot be read.
    private static func readSmallFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 65536)
        while bytes.count < 1 << 20 {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
