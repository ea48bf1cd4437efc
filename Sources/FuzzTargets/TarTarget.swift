import Identity
import Receivers

/// The input is what `db update` downloads for the standing data: gzip-compressed when it
/// starts with gzip's magic bytes (decompressed by `IdentityFiles.gunzip` within 1 MB), and
/// then a tar archive (`TarArchive.files`), whose paths are picked as `StandingDataArchive`
/// picks them.
///
/// Checks: reading is deterministic; every file kept has a path that is neither absolute nor
/// climbs out with `..`, and its bytes lie within the archive; a path picked for a table
/// starts with the table's folder and `schema-01` and ends in `.csv`, every part plain; an
/// error is one short line.
enum TarTarget {
    static func run(_ input: UnsafeRawBufferPointer) throws(FuzzFailure) {
        var bytes = Array(input.bindMemory(to: UInt8.self))
        if IdentityFiles.isGzip(bytes) {
            do throws(IdentityError) {
                bytes = try IdentityFiles.gunzip(bytes, name: "it", limit: 1 << 20)
            } catch {
                try checkMessage(error)
                return
            }
        }
        let first = Result { () throws(IdentityError) in try TarArchive.files(in: bytes) }
        let second = Result { () throws(IdentityError) in try TarArchive.files(in: bytes) }
        switch (first, second) {
        case (.success(let files), .success(let again)):
            try check(files.map(\.path) == again.map(\.path), "reads differ")
            for file in files { try checkFile(file, in: bytes) }
        case (.failure(let error), .failure(let again)):
            try check(error == again, "errors differ: \(error) and \(again)")
            try checkMessage(error)
        default:
            throw FuzzFailure("one read failed and the other did not")
        }
    }

    /// A file of the archive: a safe path, bytes within the archive, a table path well formed.
    private static func checkFile(_ file: TarArchive.File, in bytes: [UInt8]) throws(FuzzFailure) {
        let parts = file.path.split(separator: "/")
        try check(!file.path.hasPrefix("/") && !parts.contains(".."), "unsafe path \(file.path)")
        try check(
            file.contents.startIndex >= 512 && file.contents.endIndex <= bytes.count,
            "contents \(file.contents.startIndex)..<\(file.contents.endIndex) outside \(bytes.count) bytes")
        guard let table = StandingDataArchive.tablePath(file.path) else { return }
        try check(StandingDataArchive.tables.contains(table[0]), "table path \(table) outside the tables")
        try check(table.count >= 3 && table[1] == "schema-01", "table path \(table) without schema-01")
        try check(table.last?.hasSuffix(".csv") == true, "table path \(table) not a CSV file")
        try check(
            table.allSatisfy { !$0.hasPrefix(".") && !$0.contains("/") && !$0.isEmpty },
            "table path \(table) with a part that is not plain")
    }

    /// An error: one line of at most 200 characters.
    private static func checkMessage(_ error: IdentityError) throws(FuzzFailure) {
        try check(!error.message.contains("\n") && !error.message.contains("\r"), "error of two lines")
        try check(error.message.count <= 200, "error of \(error.message.count) characters")
    }
}
