import Identity

/// The regular files of a tar archive held in memory (ustar, with the pax and GNU long-name
/// records that `git archive` and GNU tar write), read defensively: the archive comes from
/// the network. Every header's checksum is checked, a file that runs past the end or an
/// archive without its end marker is refused as cut short, and a path that is absolute or
/// climbs out with `..` refuses the whole archive. Links, devices and folders are passed
/// over; nothing here writes to disk.
package struct TarArchive {
    /// One regular file: its path as the archive names it and its bytes.
    package struct File {
        /// The path, without a leading `./`.
        package let path: String
        /// The file's bytes, a slice of the archive.
        package let contents: ArraySlice<UInt8>
    }

    /// The most entries an archive may have (the standing data has about 3,000).
    package static let maximumEntries = 200_000

    /// The regular files of `bytes`, in archive order; throws an `IdentityError` saying why
    /// when `bytes` are not a whole, safe tar archive.
    package static func files(in bytes: [UInt8]) throws(IdentityError) -> [File] {
        var files: [File] = []
        var offset = 0
        var longPath: String?
        var entries = 0
        while true {
            guard offset + 512 <= bytes.count else { throw IdentityError("the archive is cut short") }
            let header = bytes[offset..<offset + 512]
            if header.allSatisfy({ $0 == 0 }) { return files }
            entries += 1
            guard entries <= maximumEntries else {
                throw IdentityError("the archive has over \(maximumEntries) entries")
            }
            guard checksumMatches(header) else {
                throw IdentityError(offset == 0 ? "it is not a tar archive" : "the archive has a damaged header")
            }
            guard let size = octal(header, at: 124, length: 12) else {
                throw IdentityError("the archive has a damaged header")
            }
            let start = offset + 512
            guard size <= bytes.count - start else { throw IdentityError("the archive is cut short") }
            let contents = bytes[start..<start + size]
            offset = start + (size + 511) / 512 * 512
            switch header[header.startIndex + 156] {
            case UInt8(ascii: "L"):
                longPath = text(contents)
            case UInt8(ascii: "x"):
                longPath = paxPath(contents) ?? longPath
            case UInt8(ascii: "0"), 0:
                let path = try safePath(longPath ?? headerPath(header))
                longPath = nil
                files.append(File(path: path, contents: contents))
            default:
                longPath = nil
            }
        }
    }

    /// `path` without a leading `./`; throws when it is absolute or has a `..` component.
    static func safePath(_ path: String) throws(IdentityError) -> String {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        guard !path.hasPrefix("/"), !parts.contains("..") else {
            throw IdentityError("the archive names an unsafe path: \(printable(path))")
        }
        return parts.filter { $0 != "." }.joined(separator: "/")
    }

    /// Whether the header's checksum field holds the sum of its bytes, the field itself
    /// counted as spaces.
    static func checksumMatches(_ header: ArraySlice<UInt8>) -> Bool {
        guard let stored = octal(header, at: 148, length: 8) else { return false }
        var sum = 0
        for (index, byte) in header.enumerated() {
            sum += (148..<156).contains(index) ? 32 : Int(byte)
        }
        return sum == stored
    }

    /// The octal number in the field at `at` of `length` bytes (spaces and NULs around it
    /// allowed); nil when it is not one or is larger than 2^33.
    static func octal(_ header: ArraySlice<UInt8>, at field: Int, length: Int) -> Int? {
        let start = header.startIndex + field
        var value = 0
        var digits = 0
        for byte in header[start..<start + length] {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                value = value * 8 + Int(byte - UInt8(ascii: "0"))
                digits += 1
                guard value < 1 << 33 else { return nil }
            case 0, UInt8(ascii: " "):
                continue
            default:
                return nil
            }
        }
        return digits > 0 ? value : nil
    }

    /// The path of a ustar header: its prefix, a slash and its name.
    static func headerPath(_ header: ArraySlice<UInt8>) -> String {
        let base = header.startIndex
        let name = text(header[base..<base + 100])
        guard header[base + 257..<base + 262].elementsEqual("ustar".utf8) else { return name }
        let prefix = text(header[base + 345..<base + 500])
        return prefix.isEmpty ? name : prefix + "/" + name
    }

    /// The `path` of a pax extended header's records (`LENGTH path=VALUE\n`), if it has one.
    static func paxPath(_ contents: ArraySlice<UInt8>) -> String? {
        for record in text(contents).split(separator: "\n") {
            guard let space = record.firstIndex(of: " ") else { continue }
            let pair = record[record.index(after: space)...]
            if pair.hasPrefix("path=") { return String(pair.dropFirst(5)) }
        }
        return nil
    }

    /// The bytes up to the first NUL, as text.
    static func text(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// `path` fit for one line of an error: at most 80 characters, control characters as `?`.
    static func printable(_ path: String) -> String {
        String(path.prefix(80).map { $0.isASCII && ($0.asciiValue ?? 0) < 32 ? "?" : $0 })
    }
}
