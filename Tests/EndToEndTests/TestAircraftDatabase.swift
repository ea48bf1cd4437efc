import Foundation

/// An aircraft database in tar1090-db's format (`icao;reg;type;flags;desc;year;ownop;`, the
/// `;` after the last field as tar1090-db writes it and readsb needs it), made for a test: one
/// row for every address of a recording's truth, with values that vary independently from
/// row to row: flags of every length, empty fields, fields beyond readsb's sizes (cut in the
/// middle of a character too), text in several scripts, quotes, tabs and control characters,
/// a header line and rows with fields after the seventh.
///
/// Backslashes and the character 0x1F are left out: readsb writes both into aircraft.json as
/// they are, which makes its file invalid JSON (docs/identity.md).
enum TestAircraftDatabase {
    /// Registrations: readsb keeps 12 bytes.
    static let registrations = [
        "PH-BXA", "", "ABCDEFGHIJKLMNOPQRST", "PH-ÄÖÜ", "D-ÉÉÉÉÉÉÉÉÉÉÉ", "N12345", "G-EZAB", "ABCDEFGHIJKÄ",
        "A\"B", "F-\tGX"
    ]
    /// Type designators: 4 bytes.
    static let types = ["A320", "", "B77W", "ABCDEFG", "R44", "ä320", "C172", "ABCä", "B\"7"]
    /// Flags: readsb reads sixteen characters, each `1` a bit.
    static let flags = [
        "", "0000", "1", "01", "001", "0001", "1111", "1010", "0101", "11", "10000", "2", "x1", "00001", "11111111",
        "0000000001", "1111111111111111111"
    ]
    /// Long type descriptions: 64 bytes.
    static let descriptions = [
        "AIRBUS A-320", "", String(repeating: "X", count: 100), "Boeing 777-300ER – großer Vogel",
        String(repeating: "É", count: 70), "ROBINSON R-44 Raven II", String(repeating: "Y", count: 63),
        String(repeating: "Z", count: 64), String(repeating: "W", count: 62) + "é✈", "tab\there", "say \"hi\""
    ]
    /// Years: 4 bytes, whatever they hold.
    static let years = ["1999", "", "20201", "abcd", "2010", "é999", "19é9", "12"]
    /// Owners and operators: 64 bytes.
    static let owners = [
        "KLM Royal Dutch Airlines", "", String(repeating: "O", count: 80), "Société Air France ✈",
        String(repeating: "Ü", count: 70), "Private 🛩 owner", String(repeating: "P", count: 63),
        String(repeating: "Q", count: 64), String(repeating: "R", count: 62) + "✈", "Fly&Co <b>", "ctrl\u{1}char",
        String(repeating: "日本航空株式会社", count: 3)
    ]

    /// The addresses (lowercase hex, sorted) of the aircraft in `recording`'s truth.
    static func addresses(ofTruthOf recording: URL) throws -> [String] {
        let truth = try String(contentsOf: URL(fileURLWithPath: recording.path + ".truth.jsonl"), encoding: .utf8)
        var addresses = Set<String>()
        for line in truth.split(separator: "\n") where line.hasPrefix("{\"type\":\"state\"") {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            if let icao = object?["icao"] as? String { addresses.insert(icao.lowercased()) }
        }
        return addresses.sorted()
    }

    /// The database's text: a header, then a row for each of `addresses`, upper-case hex on
    /// every other row, fields after the seventh on every seventh.
    static func text(addresses: [String]) -> String {
        var lines = ["icao;reg;type;flags;desc;year;ownop;"]
        for (index, address) in addresses.enumerated() {
            func pick(_ values: [String]) -> String { values[index % values.count] }
            let fields = [
                index % 2 == 0 ? address : address.uppercased(), pick(registrations), pick(types), pick(flags),
                pick(descriptions), pick(years), pick(owners)
            ]
            lines.append(fields.joined(separator: ";") + ";" + (index % 7 == 3 ? "extra;fields;" : ""))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes `text` gzip-compressed to `url` (with the system's gzip, as a user would).
    static func writeCompressed(_ text: String, to url: URL) throws {
        let plain = url.deletingPathExtension()
        try Data(text.utf8).write(to: plain)
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        gzip.arguments = ["gzip", "-n", "-f", plain.path]
        try gzip.run()
        gzip.waitUntilExit()
        guard gzip.terminationStatus == 0, FileManager.default.fileExists(atPath: url.path) else {
            throw CocoaError(.fileWriteUnknown)
        }
    }
}
