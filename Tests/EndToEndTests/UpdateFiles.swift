import Foundation
import TestSupport

/// The files `db update`'s tests serve, made once in a temporary folder with the system's
/// `tar` and `gzip`: the standing data of ../shared packed as GitHub packs the repository
/// (one top folder, tar.gz), a thin archive of a few hand-made rows, an archive that is not
/// the standing data, one naming a path outside its folder, a gzip bomb and a generated
/// aircraft database.
enum UpdateFiles {
    /// The temporary folder everything is made in.
    static let folder: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("db-update-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }()

    /// The standing data of ../shared as a tar.gz under `standing-data-main/`.
    static let standingData: [UInt8]? = {
        let top = folder.appendingPathComponent("good/standing-data-main")
        try? FileManager.default.createDirectory(at: top, withIntermediateDirectories: true)
        let snapshot = SharedData.root.appendingPathComponent("standing-data/vrs-standing-data-2026-08-19.tar.xz")
        guard shell("tar xJf '\(snapshot.path)' -C '\(top.path)'") else { return nil }
        return pack(top.deletingLastPathComponent(), "standing-data-main", into: "good.tar.gz")
    }()

    /// Every table of the standing data with a row or two: it builds, but far too small a store.
    static let thin: [UInt8] = {
        let tables = [
            "airlines/schema-01/airlines.csv": "Code,Name,ICAO,IATA\nBA,British Airways,BAW,BA\n",
            "airports/schema-01/E/EG.csv":
                "Code,Name,ICAO,IATA,Location,CountryISO2,Latitude,Longitude,AltitudeFeet\nEGLL,Heathrow,EGLL,LHR,London,GB,51.47,-0.46,83\nKJFK,Kennedy,KJFK,JFK,New York,US,40.64,-73.78,13\n",
            "model-type/schema-01/A.csv":
                "ICAO,Manufacturer,Model,Engines,EngineTypeCode,EnginePlacementCode,SpeciesCode,WakeTurbulenceCode,IsActive\nA320,Airbus,A-320,2,J,,L,M,1\n",
            "countries/schema-01/countries.csv": "ISO,Name\nGB,United Kingdom\n",
            "code-blocks/schema-01/code-blocks.csv":
                "Start,Finish,Count,Bitmask,SignificantBitmask,IsMilitary,CountryISO2\n400000,43FFFF,262144,400000,FC0000,0,GB\n",
            "aircraft/schema-01/4/40.csv": "ICAO,Registration,ModelICAO\n400001,G-ABCD,A320\n",
            "routes/schema-01/B/BAW-all.csv":
                "Callsign,Code,Number,AirlineCode,AirportCodes\nBAW1,BAW,1,BAW,EGLL-KJFK\n"
        ]
        return make("thin", tables)
    }()

    /// A tar.gz of a README only.
    static let notStandingData: [UInt8] = make("other", ["README.md": "# something else\n"])

    /// A tar.gz whose one file is named `top/../../escaped.csv` (GNU tar keeps such a name
    /// with `-P`).
    static let escaping: [UInt8] = {
        let top = folder.appendingPathComponent("escaping/top")
        try? FileManager.default.createDirectory(at: top, withIntermediateDirectories: true)
        try? "x\n".write(to: top.appendingPathComponent("escaped.csv"), atomically: true, encoding: .utf8)
        let output = folder.appendingPathComponent("escaping.tar.gz").path
        _ = shell(
            "tar czf '\(output)' -P --transform 's|^top/|top/../../|' -C '\(top.deletingLastPathComponent().path)' top/escaped.csv"
        )
        return (try? Array(Data(contentsOf: URL(fileURLWithPath: output)))) ?? []
    }()

    /// 64 MB of zeros, gzip-compressed to about 64 KB.
    static let bomb: [UInt8] = {
        let output = folder.appendingPathComponent("bomb.gz").path
        _ = shell("head -c 67108864 /dev/zero | gzip -c > '\(output)'")
        return (try? Array(Data(contentsOf: URL(fileURLWithPath: output)))) ?? []
    }()

    /// 12,000 aircraft in tar1090-db's format.
    static let aircraftPlain: [UInt8] = Array(
        (0..<12_000).map {
            String(format: "%06x;G-%04d;A320;00;AIRBUS A-320;2010;Owner %d\n", 0x400000 + $0, $0, $0 % 50)
        }.joined().utf8)

    /// The same, gzip-compressed.
    static let aircraftDatabase: [UInt8] = {
        let plain = folder.appendingPathComponent("aircraft.csv")
        try? Data(aircraftPlain).write(to: plain)
        _ = shell("gzip -kf '\(plain.path)'")
        return (try? Array(Data(contentsOf: URL(fileURLWithPath: plain.path + ".gz")))) ?? []
    }()

    /// A tar.gz of `files` (path to text) under a top folder `name`.
    static func make(_ name: String, _ files: [String: String]) -> [UInt8] {
        let top = folder.appendingPathComponent("\(name)/\(name)-main")
        for (path, text) in files {
            let file = top.appendingPathComponent(path)
            try? FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? text.write(to: file, atomically: true, encoding: .utf8)
        }
        return pack(top.deletingLastPathComponent(), "\(name)-main", into: "\(name).tar.gz") ?? []
    }

    /// `tar czf` of `name` under `parent`.
    static func pack(_ parent: URL, _ name: String, into archive: String) -> [UInt8]? {
        let output = folder.appendingPathComponent(archive).path
        guard shell("tar czf '\(output)' -C '\(parent.path)' '\(name)'") else { return nil }
        return try? Array(Data(contentsOf: URL(fileURLWithPath: output)))
    }

    /// Runs `command` with `sh -c`; whether it succeeded.
    @discardableResult
    static func shell(_ command: String) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
