import Foundation
import Identity
import Receivers
import Testing

/// tar1090-db's format as `--db-file` reads it, with hostile input: every bad row counted and
/// skipped, the rest loaded, nothing trapping; files too large or gzip bombs refused whole.
@Suite struct AircraftDatabaseTests {
    static func database(_ text: String) -> AircraftDatabase {
        Array(text.utf8).withUnsafeBufferPointer { AircraftDatabase(csv: $0) }
    }

    static func database(_ bytes: [UInt8]) -> AircraftDatabase {
        bytes.withUnsafeBufferPointer { AircraftDatabase(csv: $0) }
    }

    @Test func rowsReadAsReadsbReadsThem() {
        let database = Self.database(
            "icao;reg;type;flags;desc;year;ownop\n"
                + "4ca7b4;EI-DWF;B738;00;BOEING 737-800;2007;Ryanair\r\n"
                + "AE1234;;C17;10;BOEING C-17 Globemaster III;;USAF\n"
                + "a00001;N1;;0001;;;\n")
        #expect(database.count == 3)
        #expect(database.problems.total == 0)
        #expect(
            database.record(for: 0x4CA7B4)
                == AircraftRecord(
                    registration: "EI-DWF", typeCode: "B738", description: "BOEING 737-800", year: "2007",
                    owner: "Ryanair"))
        #expect(database.record(for: 0xAE1234)?.flags == .military)
        #expect(database.record(for: 0xAE1234)?.registration == nil)
        #expect(database.record(for: 0xA00001)?.flags == .limitedDisplay)
        #expect(database.record(for: 0x123456) == nil)
    }

    @Test func badRowsAreCountedAndTheRestLoads() {
        var bytes = Array("4ca7b4;EI-DWF;B738;00;BOEING 737-800;2007;Ryanair\n".utf8)
        bytes += Array("zzzzzz;X;Y;0;D;1;O\n".utf8)  // not an address
        bytes += Array("4ca7b5;too;few\n".utf8)  // wrong column count
        bytes += Array("4ca7b6;a;b;c;d;e;f;g\n".utf8)  // one too many: left out, as readsb does
        // Not UTF-8.
        bytes += [0x34, 0x63, 0x61, 0x37, 0x62, 0x37, 0x3B, 0xFF, 0xFE, 0x3B, 0x3B, 0x3B, 0x3B, 0x3B, 0x0A]
        bytes += Array("4CA7B4;EI-XXX;A320;00;dup;2000;Other\n".utf8)  // a duplicate: the first stays
        bytes += Array(
            "4ca7b8;\(String(repeating: "R", count: 40));LONGTYPE;1111;\(String(repeating: "d", count: 500));12345;\(String(repeating: "o", count: 500))\n"
                .utf8)
        bytes += Array("4ca7b9;;;;;;\(String(repeating: "Ä", count: 100))\n".utf8)  // cut by bytes
        bytes += Array("\n\n;;;;;;\n".utf8)
        let database = Self.database(bytes)
        #expect(database.count == 4)
        #expect(database.record(for: 0x4CA7B4)?.registration == "EI-DWF")
        #expect(database.record(for: 0x4CA7B6)?.owner == "f")
        #expect(database.record(for: 0x4CA7B9)?.owner == String(repeating: "Ä", count: AircraftRecord.Limit.owner / 2))
        #expect(database.problems.malformed == 3)
        #expect(database.problems.wrongColumns == 1)
        #expect(database.problems.duplicates == 1)
        let long = database.record(for: 0x4CA7B8)
        #expect(long?.registration?.count == AircraftRecord.Limit.registration)
        #expect(long?.typeCode == "LONG")
        #expect(long?.description?.count == AircraftRecord.Limit.description)
        #expect(long?.owner?.count == AircraftRecord.Limit.owner)
        #expect(long?.year == "1234")
        #expect(long?.flags.rawValue == 15)
    }

    /// tar1090-db's own rows end with a `;`, which readsb needs; fields are kept as readsb
    /// keeps them (found by running readsb on such rows: `DatabaseFieldsInteropTests`).
    @Test func fieldsKeptAsReadsbKeepsThem() {
        let database = Self.database(
            "4ca7b4;EI-DWF;B738;00;BOEING 737-800;2007;Ryanair;\n"
                // Sixteen flag characters count; a cut inside a character drops all of it.
                + "4ca7b5;ABCDEFGHIJKÄ;ä320;0000000001000001;\(String(repeating: "W", count: 62))é✈;19é9;"
                + "\(String(repeating: "R", count: 62))✈;\n"
                // Control characters become spaces, double quotes single ones.
                + "4ca7b6;A\u{1}B;T\tX;1;say \"hi\";\u{1F}99;Fly\u{7F}&Co;extra;\n")
        #expect(database.count == 3)
        #expect(database.problems.total == 0)
        #expect(database.record(for: 0x4CA7B4)?.owner == "Ryanair")
        #expect(
            database.record(for: 0x4CA7B5)
                == AircraftRecord(
                    registration: "ABCDEFGHIJK", typeCode: "ä32", flags: AircraftRecord.Flags(rawValue: 0x8200),
                    description: String(repeating: "W", count: 62) + "é", year: "19é",
                    owner: String(repeating: "R", count: 62)))
        #expect(
            database.record(for: 0x4CA7B6)
                == AircraftRecord(
                    registration: "A B", typeCode: "T X", flags: .military, description: "say 'hi'", year: " 99",
                    owner: "Fly\u{7F}&Co"))
    }

    @Test func randomBytesNeverTrap() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let bytes = (0..<Int.random(in: 0...2000, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            let database = Self.database(bytes)
            #expect(database.count <= bytes.count)
        }
    }

    @Test func gzipAndPlainFilesReadAlike() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("db-\(getpid())-\(#line)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = "4ca7b4;EI-DWF;B738;00;BOEING 737-800;2007;Ryanair\n"
        let plain = directory.appendingPathComponent("aircraft.csv").path
        try text.write(toFile: plain, atomically: true, encoding: .utf8)
        let packed = directory.appendingPathComponent("aircraft.csv.gz").path
        try IdentityFiles.writeCompressed(text, to: packed)
        #expect(try IdentityFiles.read(path: plain, limit: 1 << 20) == Array(text.utf8))
        #expect(try IdentityFiles.read(path: packed, limit: 1 << 20) == Array(text.utf8))
    }

    @Test func aGzipBombAndAHugeFileAreRefusedWhole() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("db-\(getpid())-\(#line)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // 64 MB of one byte compresses to about 64 KB; with a 1 MB limit it is refused.
        let bomb = directory.appendingPathComponent("bomb.gz").path
        try IdentityFiles.writeCompressed(String(repeating: "A", count: 64 << 20), to: bomb)
        #expect(throws: IdentityError.self) { try IdentityFiles.read(path: bomb, limit: 1 << 20) }
        // A sparse file larger than the limit on disk is refused before anything is read.
        let huge = directory.appendingPathComponent("huge.csv").path
        FileManager.default.createFile(atPath: huge, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: huge))
        try handle.truncate(atOffset: UInt64(IdentityFiles.maximumFileBytes) + 1)
        try handle.close()
        #expect(throws: IdentityError.self) { try IdentityFiles.read(path: huge, limit: 1 << 30) }
        // Not gzip after the magic bytes.
        let broken = directory.appendingPathComponent("broken.gz").path
        try Data([0x1F, 0x8B, 0x08, 0x00, 0x01, 0x02, 0x03]).write(to: URL(fileURLWithPath: broken))
        #expect(throws: IdentityError.self) { try IdentityFiles.read(path: broken, limit: 1 << 20) }
        #expect(throws: IdentityError.self) {
            try IdentityFiles.read(path: directory.appendingPathComponent("none").path, limit: 1)
        }
    }

    @Test func anIdentityStoreWithBadRowsLoadsTheRest() throws {
        let text = """
            \(IdentityStoreFile.header)
            @airlines
            EZY\teasyJet\tEZY\tU2
            broken
            @airports
            EGKK\tLondon Gatwick\tEGKK\tLGW\tLondon\tGB\t51.148\t-0.190
            LFMN\tNice Côte d'Azur\tLFMN\tNCE\tNice\tFR\t43.658\t7.216
            LFXX\tNowhere\tLFXX\t\tX\tFR\tnorth\t7
            @routes
            EZY8401\tEGKK-LFMN
            EZY8401\tEGKK-LFMN
            EZY9\tEGKK-LFXX
            EZY10\tEGKK
            \u{FF}
            """
        let store = try Array(text.utf8).withUnsafeBufferPointer { try IdentityStoreFile.parse($0) }
        #expect(store.route(for: "EZY8401")?.destination.name == "Nice Côte d'Azur")
        #expect(store.route(for: "U28401")?.origin.iata == "LGW")
        #expect(store.route(for: "EZY9") == nil)
        #expect(store.problems.unknownAirports == 1)
        #expect(store.problems.duplicates == 1)
        #expect(store.problems.wrongColumns == 1)
        #expect(store.problems.malformed == 3)
        #expect(throws: IdentityError.self) {
            try Array("not a store\n".utf8).withUnsafeBufferPointer { try IdentityStoreFile.parse($0) }
        }
    }
}
