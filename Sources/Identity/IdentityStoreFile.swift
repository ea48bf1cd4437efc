/// The identity store's file: plain UTF-8 text, one table after another, each row one line
/// of tab-separated fields, every table sorted by its key. `aviator-adsb db build` writes it
/// from the standing data and gzip-compresses it (3.4 MB; 12.6 MB of text).
///
/// ```
/// aviator-adsb identity store 1
/// @airlines                 code, name, ICAO code, IATA code
/// @airports                 code, name, ICAO code, IATA code, town, country, latitude, longitude
/// @types                    designator, manufacturer, model, engines, engine type, species, wake
/// @countries                ISO code, name
/// @blocks                   first address, last address (hex), military (0/1), country
/// @aircraft                 tar1090-db's own rows: icao;reg;type;flags;desc;year;ownop
/// @routes                   normalised callsign, airport codes flown ("EGKK-LFMN")
/// ```
///
/// Text and not a binary image because it compresses as well, diffs and greps, and reading it
/// takes a fraction of a second once at start, off the sample path; what it becomes in memory
/// is compact (`RouteTable`, `AircraftDatabase`).
package enum IdentityStoreFile {
    /// The first line.
    package static let header = "aviator-adsb identity store 1"
    /// The most a decompressed store may hold: far above the real one (12.6 MB), far below
    /// what would hurt.
    package static let maximumBytes = 256 << 20

    /// The store in `bytes`; every bad row is counted in its `problems` and skipped. Throws
    /// only when the first line is not the header.
    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(IdentityError) -> IdentityStore {
        var reader = StoreReader()
        var first = true
        var failure: IdentityError?
        DelimitedText.forEachLine(bytes) { line in
            if first {
                first = false
                if String(decoding: line, as: UTF8.self) != header {
                    failure = IdentityError("not an identity store (its first line is not \"\(header)\")")
                }
                return
            }
            guard failure == nil, !line.isEmpty else { return }
            reader.read(line)
        }
        if let failure { throw failure }
        if first { throw IdentityError("the identity store is empty") }
        return reader.finish()
    }
}

/// What went wrong with an identity file as a whole (a row going wrong is only counted).
package struct IdentityError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Why, in one line.
    package let message: String

    /// An error saying `message`.
    package init(_ message: String) { self.message = message }

    /// The message.
    package var description: String { message }
}
