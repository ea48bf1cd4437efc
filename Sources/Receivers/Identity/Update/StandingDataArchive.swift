import FoundationEssentials
import Identity

/// The VRS standing data inside a downloaded archive (the repository's tar.gz, whose files
/// sit under one top folder such as `standing-data-main/`): picks out the `schema-01` CSV
/// files of the tables `IdentityStoreBuilder` reads and writes them into a folder of their
/// own, under names made here from checked parts, never from the archive's paths as they
/// are. Everything else in the archive (READMEs, scripts, other schemas) is left alone.
package enum StandingDataArchive {
    /// The folders `IdentityStoreBuilder` reads, each with a `schema-01` folder of CSV files.
    package static let tables = ["airlines", "airports", "model-type", "countries", "code-blocks", "aircraft", "routes"]

    /// Writes the CSV files of `files` under `folder` (which exists) as `TABLE/schema-01/...`,
    /// and returns how many it wrote; throws when a table has none (the archive is not the
    /// standing data) or a file cannot be written.
    package static func unpack(_ files: [TarArchive.File], into folder: String) throws(IdentityError) -> Int {
        var perTable: [String: Int] = [:]
        for file in files {
            guard let relative = tablePath(file.path) else { continue }
            let target = folder + "/" + relative.joined(separator: "/")
            let directory = folder + "/" + relative.dropLast().joined(separator: "/")
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw IdentityError("cannot make \(directory)")
            }
            guard FileManager.default.createFile(atPath: target, contents: Data(file.contents)) else {
                throw IdentityError("cannot write \(target)")
            }
            perTable[relative[0], default: 0] += 1
        }
        if let missing = tables.first(where: { perTable[$0] == nil }) {
            throw IdentityError("it holds no \(missing)/schema-01 CSV files: not the standing data")
        }
        return perTable.values.reduce(0, +)
    }

    /// The parts of the path a file of the archive is written under: from its table's folder
    /// (at the top of the archive or one folder down) to its name, every part plain (letters,
    /// digits, `.`, `-` and `_`, not starting with a dot), the name ending in `.csv`; nil for
    /// any other file.
    package static func tablePath(_ path: String) -> [String]? {
        let parts = path.split(separator: "/").map(String.init)
        guard let start = (0...1).first(where: { $0 + 2 < parts.count && tables.contains(parts[$0]) }),
            parts[start + 1] == "schema-01", parts.last?.hasSuffix(".csv") == true
        else { return nil }
        let relative = Array(parts[start...])
        guard relative.count <= 5, relative.allSatisfy(isPlain) else { return nil }
        return relative
    }

    /// Whether `part` is a plain file or folder name.
    static func isPlain(_ part: String) -> Bool {
        !part.isEmpty && part.count <= 64 && !part.hasPrefix(".")
            && part.unicodeScalars.allSatisfy {
                ($0.isASCII && $0.properties.isAlphabetic) || "0123456789.-_".unicodeScalars.contains($0)
            }
    }
}
