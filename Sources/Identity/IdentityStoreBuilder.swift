import FoundationEssentials

/// Makes the identity store's text (`IdentityStoreFile`) from a copy of the VRS standing data
/// (a folder with `airlines/`, `airports/`, `model-type/`, `countries/`, `code-blocks/`,
/// `aircraft/` and `routes/`, each with its `schema-01` CSV files): what `aviator-adsb db
/// build` writes.
///
/// It keeps what the daemon looks up and no more: airports only when a route names them;
/// one row per type designator (the first active one in file order, else the first); routes
/// only when every airport they name is known. Tabs and line breaks inside fields become
/// spaces, and in the aircraft rows a semicolon becomes a comma, so that every field stays
/// one field.
package struct IdentityStoreBuilder {
    /// The standing data's folder.
    package let root: URL
    /// What was skipped.
    package private(set) var problems = LoadProblems()
    /// Rows written per table, for the command's report.
    package private(set) var written: [(table: String, rows: Int)] = []

    /// A builder reading the standing data under `root`.
    package init(root: URL) { self.root = root }

    /// The store's text.
    package mutating func build() throws -> String {
        var out = IdentityStoreFile.header + "\n"
        let airlines = try rows("airlines").filter { !$0[0].isEmpty }
        emit("airlines", airlines.map { [$0[0], $0[1], $0[2], $0[3]] }, into: &out)
        let airports = Dictionary(try rows("airports").map { ($0[0], $0) }, uniquingKeysWith: { first, _ in first })
        var routes: [[String]] = []
        var used = Set<String>()
        for row in try rows("routes") {
            let codes = row[4].split(separator: "-").map(String.init)
            guard codes.count >= 2, codes.allSatisfy({ airports[$0] != nil }) else {
                problems.unknownAirports += 1
                continue
            }
            used.formUnion(codes)
            routes.append([row[0], row[4]])
        }
        emit("airports", used.compactMap { airports[$0] }.map { Array($0.prefix(8)) }, into: &out)
        var types: [String: [String]] = [:]
        for row in try rows("model-type") where !row[0].isEmpty {
            if let kept = types[row[0]], kept[8] == "1" || row[8] != "1" { continue }
            types[row[0]] = row
        }
        emit("types", types.values.map { Array($0.prefix(4)) + [$0[4], $0[6], $0[7]] }, into: &out)
        emit("countries", try rows("countries").map { [$0[0], $0[1]] }, into: &out)
        // Blocks overlap and several start at one address: all are kept, in the data's order.
        emit("blocks", try rows("code-blocks").map { [$0[0], $0[1], $0[5], $0[6]] }, keyed: false, into: &out)
        emit("aircraft", try rows("aircraft").map(Self.aircraftRow), into: &out)
        emit("routes", routes, into: &out)
        return out
    }

    /// The tar1090-db row of a standing-data aircraft: its address in lower case, registration,
    /// type, no flags, manufacturer and model, year and operator.
    static func aircraftRow(_ row: [String]) -> [String] {
        let fields = [row[0].lowercased(), row[1], row[2], "", row[5], row[10], row[7]]
        return [fields.map { String($0.map { $0 == ";" ? "," : $0 }) }.joined(separator: ";")]
    }

    /// Writes table `name`: when `keyed`, its rows sorted by their first field and the first
    /// row of each key kept; else every row in the order given.
    private mutating func emit(_ name: String, _ rows: [[String]], keyed: Bool = true, into out: inout String) {
        out += "@\(name)\n"
        var last: String?
        var count = 0
        // Sorted by key, rows of one key in the order read (so the first is kept).
        let sorted =
            keyed
            ? rows.enumerated().sorted { ($0.element[0], $0.offset) < ($1.element[0], $1.offset) }.map(\.element) : rows
        for row in sorted {
            if keyed, row[0] == last {
                problems.duplicates += 1
                continue
            }
            last = row[0]
            out += row.map(Self.clean).joined(separator: name == "aircraft" ? ";" : "\t") + "\n"
            count += 1
        }
        written.append((name, count))
    }

    /// A field with tabs and line breaks as spaces.
    static func clean(_ field: String) -> String {
        String(field.map { $0 == "\t" || $0 == "\n" || $0 == "\r" ? " " : $0 })
    }

    /// Every data row of every CSV file under `folder/schema-01`, in path order, padded
    /// with empty fields to at least 11; rows that do not parse are counted and skipped.
    private mutating func rows(_ folder: String) throws -> [[String]] {
        let base = root.appendingPathComponent(folder).appendingPathComponent("schema-01")
        guard let paths = try? FileManager.default.subpathsOfDirectory(atPath: base.path) else {
            throw IdentityError("no folder \(base.path): is this the standing data?")
        }
        let files = paths.filter { $0.hasSuffix(".csv") }.sorted()
        guard !files.isEmpty else { throw IdentityError("no CSV files under \(base.path)") }
        var result: [[String]] = []
        for file in files {
            let data = try Data(contentsOf: base.appendingPathComponent(file))
            var header = true
            data.withUnsafeBytes { raw in
                DelimitedText.forEachLine(raw.bindMemory(to: UInt8.self)) { line in
                    if header || line.isEmpty {
                        header = false
                        return
                    }
                    guard var fields = DelimitedText.quotedFields(line) else {
                        problems.malformed += 1
                        return
                    }
                    while fields.count < 11 { fields.append("") }
                    result.append(fields)
                }
            }
        }
        return result
    }
}
