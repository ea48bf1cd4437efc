import Foundation
import TestSupport
import Testing

extension EndToEnd {
    /// The daemon with no dongle falls back to OpenSky, here a static stand-in of the API on
    /// 127.0.0.1 (Python's http.server, which ignores the query string), and tracks its aircraft.
    @Suite(.serialized, .tags(.slow)) struct OpenSkyFallbackTests {
        /// A static file server on a free loopback port, serving `directory`.
        final class StaticServer {
            let process = Process()
            let port: Int

            init(directory: URL) throws {
                let script = """
                    import functools, http.server, sys
                    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[1])
                    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
                    print(server.server_address[1], flush=True)
                    server.serve_forever()
                    """
                let output = Pipe()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                process.arguments = ["python3", "-c", script, directory.path]
                process.standardOutput = output
                process.standardError = FileHandle.nullDevice
                try process.run()
                let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
                guard let port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                    kill(process.processIdentifier, SIGKILL)
                    throw NSError(
                        domain: "StaticServer", code: 1,
                        userInfo: [NSLocalizedDescriptionKey: "python3 http.server did not start: '\(line)'"])
                }
                self.port = port
            }

            deinit {
                // SIGKILL: a child started from the test runner may have SIGTERM blocked.
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                process.waitUntilExit()
            }
        }

        @Test func noDongleFeedsTheTrackerFromOpenSky() throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "aviator-opensky-\(UUID().uuidString)")
            let api = folder.appendingPathComponent("api/states")
            try FileManager.default.createDirectory(at: api, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let now = Int(Date().timeIntervalSince1970)
            let body = """
                {"time":\(now),"states":[\
                ["4b1805","SWR8KR  ","Switzerland",\(now - 1),\(now),8.6521,47.4502,3048,false,100,271.5,-5.08,null,3100.8,"1000",false,0],\
                ["3c6675","DLH4TK  ","Germany",null,\(now),null,null,null,true,4.12,92.81,null,null,null,"7000",false,0,4],\
                ["a1b2c3",null,"United States",\(now - 3),\(now - 2),8.3,47.2,null,false,null,null,null,null,null,null,false,2,null]]}
                """
            try Data(body.utf8).write(to: api.appendingPathComponent("all"))
            let server = try StaticServer(directory: folder)

            let daemon = try Daemon(
                [
                    "--retry-interval", "0.2", "--stats-interval", "0.3", "--receiver", "47.4581,8.5555",
                    "--opensky-url", "http://127.0.0.1:\(server.port)"
                ], environment: try FakeRTLSDR.environment(["AVIATOR_FAKE_RTLSDR_DEVICES": "0"]))
            #expect(daemon.waitFor("falling back to opensky"))
            #expect(daemon.waitFor("lat 47.25…47.75, lon 8.1…9.1"))
            #expect(daemon.waitFor("OpenSky: 3 aircraft in the box"))
            #expect(daemon.waitFor("3 aircraft, 2 with position"))
            #expect(daemon.stderr.contains("source opensky"))
            #expect(!daemon.stderr.contains("47.4581") && !daemon.stderr.contains("8.5555"))
            #expect(daemon.stop(signal: SIGTERM).status == 0)
        }

        @Test func badOpenSkyOptionsAreClearErrors() throws {
            for arguments in [
                ["--opensky-url", "ftp://example"], ["--opensky-interval", "0"],
                ["--opensky-box-lat", "0"], ["--opensky-box-lon", "nan"]
            ] {
                let result = try BinaryRunner.run(["run"] + arguments)
                #expect(result.status != 0, "\(arguments)")
                #expect(result.stderr.contains(arguments[0]), "\(arguments): \(result.stderr)")
            }
        }
    }
}
