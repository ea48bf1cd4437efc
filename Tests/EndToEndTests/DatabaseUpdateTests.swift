import Foundation
import TestSupport
import Testing

extension EndToEnd {
    /// `aviator-adsb db update` against a local HTTPS server: the standing data of ../shared
    /// replaces the store, which then loads; every bad answer (an error status, an HTML page,
    /// a cut-off or oversized body, a gzip bomb, an archive that is not the standing data or
    /// names a path outside its folder, a silent server, a redirect to plain HTTP, an
    /// untrusted certificate) ends the command with status 1 and one line saying why, and
    /// leaves the old store byte for byte as it was.
    @Suite struct DatabaseUpdateTests {
        /// One bad answer: the path served, how, the options added, and what the line says.
        struct BadCase: Sendable, CustomStringConvertible {
            let path: String
            let answer: UpdateServer.Answer
            var options: [String] = []
            let says: String
            var description: String { path }
        }

        static let oldStore = Array("the old store, kept as it is\n".utf8)

        static var badCases: [BadCase] {
            let thin = UpdateFiles.thin
            let hugeBody = [UInt8](repeating: 0x1F, count: 3 << 20)
            return [
                BadCase(
                    path: "/missing", answer: .file(status: 404, body: []),
                    says: "127.0.0.1: the server answered HTTP 404"),
                BadCase(path: "/failing", answer: .file(status: 500, body: []), says: "the server answered HTTP 500"),
                BadCase(
                    path: "/html", answer: .file(status: 200, body: Array("<!DOCTYPE html><html>hi</html>".utf8)),
                    says: "it is not gzip (an HTML page)"),
                BadCase(
                    path: "/truncated", answer: .file(status: 200, body: Array(thin.prefix(thin.count / 2))),
                    says: "gzip"),
                BadCase(
                    path: "/cut-short", answer: .cutShort(announced: thin.count, body: Array(thin.prefix(100))),
                    says: "the server closed the connection before the whole answer"),
                BadCase(
                    path: "/huge", answer: .unannounced(hugeBody), options: ["--max-download-mb", "1"],
                    says: "the server sends more than 1 MB (--max-download-mb)"),
                BadCase(
                    path: "/huge-announced", answer: .file(status: 200, body: hugeBody),
                    options: ["--max-download-mb", "1"], says: "the server sends more than 1 MB (--max-download-mb)"),
                BadCase(
                    path: "/bomb", answer: .file(status: 200, body: UpdateFiles.bomb),
                    options: ["--max-unpacked-mb", "8"], says: "decompresses to more than 8 MB"),
                BadCase(
                    path: "/thin", answer: .file(status: 200, body: thin),
                    says: "routes (at least 100000 expected)"),
                BadCase(
                    path: "/other", answer: .file(status: 200, body: UpdateFiles.notStandingData),
                    says: "it holds no airlines/schema-01 CSV files: not the standing data"),
                BadCase(
                    path: "/escaping", answer: .file(status: 200, body: UpdateFiles.escaping),
                    says: "the archive names an unsafe path: top/../../escaped.csv"),
                BadCase(path: "/slow", answer: .stall, options: ["--timeout", "2"], says: "within 2 s"),
                BadCase(path: "/to-http", answer: .redirect("http://127.0.0.1:9/x"), says: "only https:// URLs"),
                BadCase(path: "/moved", answer: .redirect("/missing"), says: "127.0.0.1 answered HTTP 404"),
                BadCase(path: "/loop", answer: .redirect("/loop"), says: "more than 5 redirects")
            ]
        }

        @Test(.requires(.program("openssl"))) func everyBadAnswerLeavesTheOldStoreAndSaysWhyInOneLine() async throws {
            let cases = Self.badCases
            let server = try await UpdateServer(
                folder: UpdateFiles.folder,
                answers: Dictionary(uniqueKeysWithValues: cases.map { ($0.path, $0.answer) }))
            defer { Task { try? await server.stop() } }
            let folder = UpdateFiles.folder.appendingPathComponent("bad")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let store = folder.appendingPathComponent("identity-store.gz")
            try Data(Self.oldStore).write(to: store)
            for bad in cases {
                let started = Date()
                let result = try BinaryRunner.run(
                    [
                        "db", "update", "--standing-data-url", server.url(bad.path), "--ca-file", server.certificate,
                        "-o", store.path
                    ] + bad.options, timeout: 60)
                print("\(bad.path): \(result.stderr)", terminator: "")
                let lines = result.stderr.split(separator: "\n")
                #expect(result.status == 1, "\(bad): \(result.stderr)")
                #expect(lines.count == 1, "\(bad): \(result.stderr)")
                #expect(lines.first?.hasPrefix("Error: ") == true, "\(bad): \(result.stderr)")
                #expect(result.stderr.contains(bad.says), "\(bad): \(result.stderr)")
                #expect(result.stderr.contains("\(store.path) is unchanged"), "\(bad): \(result.stderr)")
                #expect(try Array(Data(contentsOf: store)) == Self.oldStore, "\(bad)")
                #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["identity-store.gz"])
                #expect(Date().timeIntervalSince(started) < 30, "\(bad)")
            }
        }

        @Test(.requires(.program("openssl"))) func onlyHTTPSWithATrustedCertificateIsFetched() async throws {
            let server = try await UpdateServer(
                folder: UpdateFiles.folder, answers: ["/thin": .file(status: 200, body: UpdateFiles.thin)])
            defer { Task { try? await server.stop() } }
            let store = UpdateFiles.folder.appendingPathComponent("trust-store.gz")
            try Data(Self.oldStore).write(to: store)
            let untrusted = try BinaryRunner.run(
                ["db", "update", "--standing-data-url", server.url("/thin"), "-o", store.path], timeout: 60)
            print("untrusted: \(untrusted.stderr)", terminator: "")
            #expect(untrusted.status == 1)
            #expect(
                untrusted.stderr.contains(
                    "could not be fetched from 127.0.0.1: the server's certificate is not trusted"),
                "\(untrusted.stderr)")
            #expect(untrusted.stderr.split(separator: "\n").count == 1, "\(untrusted.stderr)")
            let plain = try BinaryRunner.run(
                ["db", "update", "--standing-data-url", "http://127.0.0.1:\(server.port)/thin", "-o", store.path])
            #expect(plain.status == 1)
            #expect(plain.stderr.contains("only https:// URLs are fetched, not http://127.0.0.1"), "\(plain.stderr)")
            #expect(try Array(Data(contentsOf: store)) == Self.oldStore)
        }

        @Test(.requires(.program("openssl"))) func aBadAircraftDatabaseLeavesTheOldOneAndSaysWhy() async throws {
            var rows = String(decoding: UpdateFiles.aircraftPlain, as: UTF8.self).split(separator: "\n")
            for index in 0..<600 { rows[index * 10] = "broken row" }
            let answers: [String: UpdateServer.Answer] = [
                "/html": .file(status: 200, body: Array("<html><body>moved</body></html>".utf8)),
                "/few": .file(status: 200, body: Array(UpdateFiles.aircraftPlain.prefix(2_000))),
                "/bad-rows": .file(status: 200, body: Array(rows.joined(separator: "\n").utf8))
            ]
            let server = try await UpdateServer(folder: UpdateFiles.folder, answers: answers)
            defer { Task { try? await server.stop() } }
            let database = UpdateFiles.folder.appendingPathComponent("old-aircraft.csv.gz")
            try Data(Self.oldStore).write(to: database)
            let expected = [
                "/html": "it has only 0 usable rows (at least 10000 expected); an HTML page",
                "/few": "rows (at least 10000 expected",
                "/bad-rows": "600 of its rows are bad (600 with the wrong number of fields)"
            ]
            for (path, says) in expected {
                let result = try BinaryRunner.run(
                    [
                        "db", "update", "--aircraft-db-only", "--aircraft-db-url", server.url(path),
                        "--ca-file", server.certificate, "--db-file", database.path
                    ], timeout: 60)
                print("\(path): \(result.stderr)", terminator: "")
                #expect(result.status == 1, "\(path): \(result.stderr)")
                #expect(result.stderr.split(separator: "\n").count == 1, "\(path): \(result.stderr)")
                #expect(result.stderr.contains("the aircraft database from 127.0.0.1 is refused: "), "\(result.stderr)")
                #expect(result.stderr.contains(says), "\(path): \(result.stderr)")
                #expect(result.stderr.contains("\(database.path) is unchanged"), "\(path): \(result.stderr)")
                #expect(try Array(Data(contentsOf: database)) == Self.oldStore, "\(path)")
            }
        }

        @Test(.requires(.program("openssl"), .shared("standing-data/vrs-standing-data-2026-08-19.tar.xz")))
        func theStandingDataReplacesTheStoreWhichThenLoads() async throws {
            let archive = try #require(UpdateFiles.standingData, "the standing data of ../shared did not pack")
            let server = try await UpdateServer(
                folder: UpdateFiles.folder,
                answers: [
                    "/standing-data.tar.gz": .file(status: 200, body: archive),
                    "/moved": .redirect("/standing-data.tar.gz"),
                    "/aircraft.csv.gz": .file(status: 200, body: UpdateFiles.aircraftDatabase)
                ])
            defer { Task { try? await server.stop() } }
            let state = UpdateFiles.folder.appendingPathComponent("state")
            try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
            let store = state.appendingPathComponent("identity-store.gz")
            try Data(Self.oldStore).write(to: store)
            let started = Date()
            let result = try BinaryRunner.run(
                [
                    "db", "update", "--standing-data-url", server.url("/moved"), "--ca-file", server.certificate,
                    "--aircraft-db-url", server.url("/aircraft.csv.gz"), "--state-dir", state.path
                ], timeout: 600)
            print("db update of the standing data (\(archive.count) bytes): \(Date().timeIntervalSince(started)) s")
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("fetched \(archive.count) bytes"), "\(result.stdout)")
            #expect(result.stdout.contains("replaced \(store.path): 618583 routes"), "\(result.stdout)")
            #expect(result.stdout.contains("12000 aircraft"), "\(result.stdout)")
            let check = try BinaryRunner.run(
                [
                    "db", "check", "--identity-store", store.path,
                    "--db-file", state.appendingPathComponent("aircraft.csv.gz").path
                ])
            #expect(check.status == 0, "\(check.stderr)")
            #expect(check.stdout.contains("3799 airports, 618583 routes"), "\(check.stdout)")
            #expect(check.stdout.contains("aircraft.csv.gz: 12000 aircraft"), "\(check.stdout)")
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: state.path).sorted() == [
                    "aircraft.csv.gz", "identity-store.gz"
                ])
        }
    }
}
