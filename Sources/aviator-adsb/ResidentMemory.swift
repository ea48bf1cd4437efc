import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's resident memory, as Linux's `/proc/self/statm` counts it: what `db check`
/// reports a load to have cost.
enum ResidentMemory {
    /// Resident bytes now; 0 where `/proc` is missing.
    static func bytes() -> Int {
        guard let data = FileManager.default.contents(atPath: "/proc/self/statm"),
            let text = String(data: data, encoding: .utf8)
        else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
