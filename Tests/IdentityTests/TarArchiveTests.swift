import Foundation
import Identity
import Receivers
import Testing

/// `TarArchive` and `StandingDataArchive`, on archives made here byte by byte: what a
/// download of the standing data holds, and hostile archives (paths out of the folder, cut
/// short, not a tar at all), each refused with its reason.
@Suite struct TarArchiveTests {
    /// One ustar entry: a header with its checksum, then the contents padded to 512 bytes.
    static func entry(_ name: String, _ contents: String = "", type: Character = "0") -> [UInt8] {
        var header = [UInt8](repeating: 0, count: 512)
        func put(_ text: String, at offset: Int) {
            for (index, byte) in text.utf8.enumerated() { header[offset + index] = byte }
        }
        put(String(name.prefix(100)), at: 0)
        put("0000644", at: 100)
        let size = String(contents.utf8.count, radix: 8)
        put(String(repeating: "0", count: 11 - size.count) + size, at: 124)
        put(String(type), at: 156)
        put("ustar", at: 257)
        put("00", at: 263)
        let sum = header.enumerated().reduce(0) { $0 + ((148..<156).contains($1.offset) ? 32 : Int($1.element)) }
        let octal = String(sum, radix: 8)
        put(String(repeating: "0", count: 6 - octal.count) + octal + "\0 ", at: 148)
        var body = Array(contents.utf8)
        body += [UInt8](repeating: 0, count: (512 - body.count % 512) % 512)
        return header + body
    }

    /// The two zero blocks that end an archive.
    static let end = [UInt8](repeating: 0, count: 1024)

    @Test func readsRegularFilesAndPassesOverTheRest() throws {
        let pax = "30 path=" + String(repeating: "d/", count: 60) + "long.csv\n"
        let bytes =
            Self.entry("./top/", type: "5") + Self.entry("./top/a.csv", "x,y\n1,2\n")
            + Self.entry("top/link", type: "2") + Self.entry("pax", pax, type: "x")
            + Self.entry("short-name", "z") + Self.end
        let files = try TarArchive.files(in: bytes)
        #expect(files.map(\.path) == ["top/a.csv", String(repeating: "d/", count: 60) + "long.csv"])
        #expect(Array(files[0].contents) == Array("x,y\n1,2\n".utf8))
        #expect(Array(files[1].contents) == Array("z".utf8))
    }

    @Test(arguments: ["ustar", "gnu", "pax"])
    func readsWhatGNUTarWrites(_ format: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tar-\(format)-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let long = String(repeating: "d", count: 60) + "/" + String(repeating: "e", count: 60)
        let source = folder.appendingPathComponent("top/\(long)")
        try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
        try "a,b\n".write(to: source.appendingPathComponent("long.csv"), atomically: true, encoding: .utf8)
        try "x\n".write(to: folder.appendingPathComponent("top/short.csv"), atomically: true, encoding: .utf8)
        let archive = folder.appendingPathComponent("archive.tar")
        let tar = Process()
        tar.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        tar.arguments = ["tar", "cf", archive.path, "--format=\(format)", "-C", folder.path, "top"]
        try tar.run()
        tar.waitUntilExit()
        let files = try TarArchive.files(in: Array(Data(contentsOf: archive)))
        #expect(Set(files.map(\.path)) == ["top/\(long)/long.csv", "top/short.csv"])
        #expect(files.first { $0.path.hasSuffix("long.csv") }.map { Array($0.contents) } == Array("a,b\n".utf8))
    }

    @Test func refusesPathsOutOfTheFolder() {
        for name in ["../etc/passwd", "top/../../x.csv", "/etc/passwd"] {
            #expect(throws: IdentityError.self) { try TarArchive.files(in: Self.entry(name, "x") + Self.end) }
        }
        #expect {
            try TarArchive.files(in: Self.entry("a/../../b.csv", "x") + Self.end)
        } throws: {
            ($0 as? IdentityError)?.message == "the archive names an unsafe path: a/../../b.csv"
        }
    }

    @Test func refusesWhatIsCutShortOrNotATar() {
        let whole = Self.entry("a.csv", String(repeating: "row\n", count: 300)) + Self.end
        for cut in [whole.count - 1024, 700, 100] {
            #expect {
                try TarArchive.files(in: Array(whole.prefix(cut)))
            } throws: {
                ($0 as? IdentityError)?.message == "the archive is cut short"
            }
        }
        let html = Array(("<!DOCTYPE html><html>" + String(repeating: " ", count: 600)).utf8)
        #expect {
            try TarArchive.files(in: html)
        } throws: {
            ($0 as? IdentityError)?.message == "it is not a tar archive"
        }
        var damaged = whole
        damaged[10] ^= 0x20
        #expect(throws: IdentityError.self) { try TarArchive.files(in: damaged) }
    }

    @Test func standingDataFilesKeepTheirTablePathOnly() {
        #expect(
            StandingDataArchive.tablePath("standing-data-main/routes/schema-01/S/SWA-all.csv")
                == ["routes", "schema-01", "S", "SWA-all.csv"])
        #expect(
            StandingDataArchive.tablePath("airlines/schema-01/airlines.csv") == [
                "airlines", "schema-01", "airlines.csv"
            ])
        #expect(StandingDataArchive.tablePath("a/b/routes/schema-01/x.csv") == nil)
        #expect(StandingDataArchive.tablePath("top/routes/schema-02/x.csv") == nil)
        #expect(StandingDataArchive.tablePath("top/routes/schema-01/README.md") == nil)
        #expect(StandingDataArchive.tablePath("top/routes/schema-01/.x.csv") == nil)
        #expect(StandingDataArchive.tablePath("top/routes/schema-01/a b.csv") == nil)
    }

    @Test func anArchiveWithoutEveryTableIsNotTheStandingData() throws {
        let files = try TarArchive.files(in: Self.entry("top/airlines/schema-01/airlines.csv", "a\n") + Self.end)
        let folder = try IdentityUpdate.temporaryFolder(beside: "/tmp/store.gz")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect {
            try StandingDataArchive.unpack(files, into: folder)
        } throws: {
            ($0 as? IdentityError)?.message == "it holds no airports/schema-01 CSV files: not the standing data"
        }
    }
}
