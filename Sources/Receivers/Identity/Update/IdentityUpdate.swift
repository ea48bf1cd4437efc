import FoundationEssentials
import Identity
import Support

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `aviator-adsb db update`: fetches fresh identity data over HTTPS, checks it, and only then
/// replaces the file the daemon reads, by a rename in the file's own folder. Whatever fails
/// (the network, the server, the format, the size, too few rows) ends in one `IdentityError`
/// line and leaves the old file as it was.
///
/// Memory is bounded by the limits: the download (`HTTPSDownload.maximumBytes`), what it
/// decompresses to (`maximumUnpackedBytes`), and the store being built from it.
package struct IdentityUpdate: Sendable {
    /// How files are fetched.
    package var download = HTTPSDownload()
    /// The most a download may decompress to: 512 MB by default (the standing data's
    /// archive unpacks to about 30 MB); a gzip bomb stops here.
    package var maximumUnpackedBytes = 512 << 20
    /// The fewest rows the new store must have.
    package var minimums = IdentityStoreMinimums()
    /// The fewest aircraft a new aircraft database must have (tar1090-db's has about 600,000).
    package var minimumAircraft = 10_000
    /// Where progress lines go.
    package var report: @Sendable (String) -> Void

    /// An update that reports progress to `report`.
    package init(report: @escaping @Sendable (String) -> Void) { self.report = report }

    /// Fetches the standing data's tar.gz at `url`, builds the store from it, checks it and
    /// renames it over `output`; returns the line that says what the new store holds.
    package func updateStore(from url: String, to output: String) async throws(IdentityError) -> String {
        let folder = try Self.temporaryFolder(beside: output)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await fetchStandingData(url, into: folder)
        let started = ContinuousClock.now
        var builder = IdentityStoreBuilder(root: URL(fileURLWithPath: folder))
        let text: String
        let store: IdentityStore
        do throws(IdentityError) {
            do { text = try builder.build() } catch let error as IdentityError { throw error } catch {
                throw IdentityError("\(error)")
            }
            store = try Array(text.utf8).withUnsafeBufferPointer { buffer throws(IdentityError) in
                try IdentityStoreFile.parse(buffer)
            }
            try minimums.check(store)
        } catch {
            throw IdentityError("the standing data from \(Self.host(url)) is refused: \(error.message)")
        }
        try IdentityFiles.writeCompressed(text, to: output)
        return
            "replaced \(output): \(store.routes.count) routes, \(store.airlines.count) airlines, \(store.airports.count) airports, \(store.types.count) types, \(store.blocks.count) blocks, \(store.aircraft.count) aircraft; skipped: \(builder.problems.summary); built in \(Self.seconds(since: started)) s"
    }

    /// Fetches the standing data's tar.gz at `url` and writes its CSV files into `folder`;
    /// the archive and what it unpacked to are let go on return, before the store is built.
    private func fetchStandingData(_ url: String, into folder: String) async throws(IdentityError) {
        let archive = try await fetch(url, what: "standing data")
        do throws(IdentityError) {
            guard IdentityFiles.isGzip(archive) else { throw IdentityError("it is not gzip (\(Self.looks(archive)))") }
            let tar = try IdentityFiles.gunzip(archive, name: "it", limit: maximumUnpackedBytes)
            let count = try StandingDataArchive.unpack(try TarArchive.files(in: tar), into: folder)
            report("unpacked \(count) CSV files (\(tar.count >> 10) KB)")
        } catch {
            throw IdentityError("the standing data from \(Self.host(url)) is refused: \(error.message)")
        }
    }

    /// Fetches tar1090-db's `aircraft.csv.gz` (or a plain CSV) at `url`, reads it as the
    /// daemon's `--db-file` would, and when it holds enough aircraft with few bad rows,
    /// writes it as it came over `output`; returns the line that says what it holds.
    package func updateAircraftDatabase(from url: String, to output: String) async throws(IdentityError) -> String {
        let raw = try await fetch(url, what: "aircraft database")
        let database: AircraftDatabase
        do throws(IdentityError) {
            let text =
                try IdentityFiles.isGzip(raw)
                ? IdentityFiles.gunzip(raw, name: "it", limit: maximumUnpackedBytes) : raw
            database = text.withUnsafeBufferPointer { AircraftDatabase(csv: $0) }
            guard database.count >= minimumAircraft else {
                throw IdentityError(
                    "it has only \(database.count) usable rows (at least \(minimumAircraft) expected)"
                        + (database.count == 0 ? "; \(Self.looks(text))" : "")
                )
            }
            let bad = database.problems.total
            guard bad <= database.count / 100 else {
                throw IdentityError("\(bad) of its rows are bad (\(database.problems.summary))")
            }
        } catch {
            throw IdentityError("the aircraft database from \(Self.host(url)) is refused: \(error.message)")
        }
        try IdentityFiles.writeAtomically(raw, to: output)
        return "replaced \(output): \(database.count) aircraft; skipped: \(database.problems.summary)"
    }

    /// The body at `url`, with a progress line as it comes and one when it is in.
    private func fetch(_ url: String, what: String) async throws(IdentityError) -> [UInt8] {
        report("fetching the \(what) from \(url)")
        let started = ContinuousClock.now
        let report = self.report
        do throws(IdentityError) {
            let bytes = try await download.fetch(url) { report("  \(Self.megabytes($0)) MB") }
            report("fetched \(bytes.count) bytes in \(Self.seconds(since: started)) s")
            return bytes
        } catch {
            throw IdentityError("the \(what) could not be fetched from \(Self.host(url)): \(error.message)")
        }
    }

    /// A new, empty folder beside `file`, for the unpacked files.
    package static func temporaryFolder(beside file: String) throws(IdentityError) -> String {
        let directory = file.contains("/") ? String(file[..<file.lastIndex(of: "/")!]) : "."
        var template = ((directory.isEmpty ? "/" : directory) + "/.db-update-XXXXXX").utf8CString
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw IdentityError("cannot make a folder in \(directory): \(String(cString: strerror(errno)))")
        }
        return String(cString: made)
    }

    /// The host of `url`, for messages.
    static func host(_ url: String) -> String { URL(string: url)?.host ?? "the server" }

    /// What `bytes` look like when they are not what was expected: an HTML page, empty, or
    /// their first bytes in hex.
    static func looks(_ bytes: [UInt8]) -> String {
        if bytes.isEmpty { return "it is empty" }
        let start = String(decoding: bytes.prefix(256), as: UTF8.self).lowercased()
        if start.contains("<html") || start.contains("<!doctype") { return "an HTML page" }
        return "it starts " + bytes.prefix(4).map { String($0, radix: 16) }.joined(separator: " ")
    }

    /// The seconds from `start` to now, with one decimal.
    static func seconds(since start: ContinuousClock.Instant) -> Double {
        ((ContinuousClock.now - start).inSeconds * 10).rounded() / 10
    }

    /// `bytes` in megabytes with one decimal.
    static func megabytes(_ bytes: Int) -> String {
        let tenths = (bytes * 10 + (1 << 19)) >> 20
        return "\(tenths / 10).\(tenths % 10)"
    }
}
