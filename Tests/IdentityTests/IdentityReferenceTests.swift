import Foundation
import Identity
import TestSupport
import Testing

/// Lookups of 2,000 addresses, 2,000 callsigns and 2,000 type designators in the identity
/// store built from the standing data, against a plain Python reading of the same CSV files
/// (Tests/Fixtures/identity_reference.py): every answer identical.
@Suite(.requires(.shared(StandingDataFixture.archive), .program("python3"), .program("tar")), .tags(.slow))
struct IdentityReferenceTests {
    @Test func lookupsMatchAPlainReadingOfTheCSVFiles() throws {
        let built = try #require(StandingDataFixture.built, "the standing data did not unpack or build")
        let queries = Self.queries(text: built.text)
        #expect(queries.count == 6000)
        let expected = try Self.python(root: built.root, queries: queries)
        #expect(expected.count == queries.count)
        var differences = 0
        for (query, reference) in zip(queries, expected) {
            let ours = Self.answer(query, store: built.store)
            if ours != reference {
                differences += 1
                if differences <= 10 { Issue.record("\(query): ours \(ours), Python's \(reference)") }
            }
        }
        #expect(differences == 0)
        // The comparison means something only when most lookups found something.
        let found = expected.filter {
            $0.split(separator: "\t", omittingEmptySubsequences: false).dropFirst(2).contains { !$0.isEmpty }
        }
        #expect(found.count > 2500)
    }

    /// Half of each kind drawn from the store's own rows (some callsigns written with leading
    /// zeros, as pilots do), half random.
    static func queries(text: String) -> [String] {
        var random = SplitMix(state: 50)
        let aircraft = StandingDataFixture.table("aircraft", in: text).map { String($0.prefix(6)) }
        let routes = StandingDataFixture.table("routes", in: text).map { String($0.prefix { $0 != "\t" }) }
        let types = StandingDataFixture.table("types", in: text).map { String($0.prefix { $0 != "\t" }) }
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        var queries: [String] = []
        for index in 0..<2000 {
            let address =
                index % 2 == 0
                ? aircraft.randomElement(using: &random)! : hex(UInt32.random(in: 0...0xFFFFFF, using: &random))
            queries.append("a \(address.uppercased())")
        }
        for index in 0..<2000 {
            var callsign: String
            if index % 2 == 0 {
                callsign = routes.randomElement(using: &random)!
                if index % 6 == 0, let digit = callsign.firstIndex(where: \.isNumber) {
                    callsign.insert("0", at: digit)
                }
            } else {
                callsign = String(
                    (0..<Int.random(in: 3...8, using: &random)).map { _ in letters.randomElement(using: &random)! })
            }
            queries.append("c \(callsign)")
        }
        for index in 0..<2000 {
            let designator =
                index % 2 == 0
                ? types.randomElement(using: &random)!
                : String((0..<4).map { _ in letters.randomElement(using: &random)! })
            queries.append("t \(designator)")
        }
        return queries
    }

    static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: 6 - digits.count) + digits
    }

    /// Our answer to one query, in the reference's form.
    static func answer(_ query: String, store: IdentityStore) -> String {
        let value = String(query.dropFirst(2))
        switch query.first {
        case "a":
            let identity = store.identity(address: UInt32(value, radix: 16)!)
            let record = identity.record
            let fields = [
                record?.registration, record?.typeCode, identity.typeDescription, record?.year, record?.owner,
                identity.countryCode, identity.military ? "1" : "0", identity.aircraftClass?.rawValue
            ]
            return (["a", value] + fields.map { $0 ?? "" }).joined(separator: "\t")
        case "c":
            guard let route = store.route(for: value) else { return "c\t\(value)\t" }
            let normalised = Callsign.normalised(value, iataToICAO: { store.iataToICAO[$0] }) ?? ""
            let parts = route.airports.map { airport in
                "\(airport.icao ?? airport.iata ?? "")|\(airport.name ?? "")|"
                    + String(format: "%.4f|%.4f", airport.latitude ?? .nan, airport.longitude ?? .nan)
            }
            return (["c", value, normalised] + parts).joined(separator: "\t")
        default:
            guard let type = store.types[value] else { return "t\t\(value)\t\t" }
            return ["t", value, type.description, type.aircraftClass.rawValue].joined(separator: "\t")
        }
    }

    /// The reference's answers, one a query.
    static func python(root: URL, queries: [String]) throws -> [String] {
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("identity-queries-\(getpid()).txt")
        try (queries.joined(separator: "\n") + "\n").write(to: input, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: input) }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/identity_reference.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, root.path]
        process.standardInput = try FileHandle(forReadingFrom: input)
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .dropLast().map(String.init)
    }
}
