import AsyncHTTPClient
import Foundation
import TestSupport
import Testing

extension EndToEnd {
    /// `/metrics` of the running binary, read by prometheus_client's parser and checked
    /// against aircraft.json and stats.json of the same moment.
    @Suite(.tags(.slow)) struct MetricsEndToEndTests {
        /// One scrape as prometheus_client read it.
        struct Scrape {
            var types: [String: String]
            var samples: [(name: String, labels: [String: String], value: Double)]

            /// The sum of the samples named `name`, over every label set; nil when there is none.
            func total(_ name: String) -> Double? {
                let values = samples.filter { $0.name == name }.map(\.value)
                return values.isEmpty ? nil : values.reduce(0, +)
            }
        }

        /// GET `path`: the status, the `Content-Type` and the body.
        static func get(_ port: Int, _ path: String) async throws -> (status: UInt, type: String?, body: String) {
            let response = try await HTTPClient.shared.execute(
                HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)"),
                timeout: .seconds(10))
            let body = try await response.body.collect(upTo: 8 << 20)
            return (response.status.code, response.headers["Content-Type"].first, String(buffer: body))
        }

        /// Scrapes `/metrics`: its text.
        static func scrape(_ port: Int) async throws -> String {
            let page = try await get(port, "/metrics")
            #expect(page.status == 200)
            #expect(page.type?.hasPrefix("text/plain; version=0.0.4") == true, "\(page.type ?? "no Content-Type")")
            return page.body
        }

        /// A scrape's text as scripts/parse_metrics.py (prometheus_client) reads it.
        static func parse(_ text: String, python: URL) throws -> Scrape {
            let run = Process()
            run.executableURL = python
            run.arguments = [BinaryRunner.projectRoot.appendingPathComponent("scripts/parse_metrics.py").path]
            let input = Pipe()
            let output = Pipe()
            let errors = Pipe()
            run.standardInput = input
            run.standardOutput = output
            run.standardError = errors
            try run.run()
            input.fileHandleForWriting.write(Data(text.utf8))
            try input.fileHandleForWriting.close()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            let problem = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            run.waitUntilExit()
            guard run.terminationStatus == 0,
                let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
                let types = object["types"] as? [String: String], let samples = object["samples"] as? [[Any]]
            else {
                throw EndToEndFailure("prometheus_client did not read /metrics: \(problem)\n\(text)")
            }
            return Scrape(
                types: types,
                samples: samples.compactMap { sample in
                    guard sample.count == 3, let name = sample[0] as? String,
                        let labels = sample[1] as? [String: String],
                        let value = (sample[2] as? NSNumber)?.doubleValue
                    else { return nil }
                    return (name, labels, value)
                })
        }

        /// A JSON document's object.
        static func object(_ text: String) throws -> [String: Any] {
            guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
                throw EndToEndFailure("not a JSON object: \(text.prefix(200))")
            }
            return object
        }

        /// aircraft.json from the web server: its message count, aircraft, and aircraft with a position.
        static func aircraftJSON(_ port: Int) async throws -> (messages: Double, aircraft: Int, withPosition: Int) {
            let document = try object(try await get(port, "/data/aircraft.json").body)
            let aircraft = document["aircraft"] as? [[String: Any]] ?? []
            return (
                (document["messages"] as? NSNumber)?.doubleValue ?? -1, aircraft.count,
                aircraft.filter { $0["lat"] != nil }.count
            )
        }

        /// stats.json's `total` period, once its `end` is at least `after` (seconds since 1970).
        static func statsTotal(in directory: String, after: Double) async throws -> [String: Any] {
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline {
                if let text = try? String(contentsOfFile: directory + "/stats.json", encoding: .utf8),
                    let total = try object(text)["total"] as? [String: Any],
                    let end = (total["end"] as? NSNumber)?.doubleValue, end >= after
                {
                    return total
                }
                try await Task.sleep(for: .milliseconds(200))
            }
            throw EndToEndFailure("no stats.json written after \(after) in \(directory)")
        }

        /// A number at `path` in a JSON object (arrays summed).
        static func number(_ object: [String: Any], _ path: String...) -> Double {
            var value: Any = object
            for key in path { value = (value as? [String: Any])?[key] as Any }
            if let array = value as? [NSNumber] { return array.reduce(0) { $0 + $1.doubleValue } }
            return (value as? NSNumber)?.doubleValue ?? .nan
        }

        @Test func noMetricsLeavesThePathUnservedAndTheRestAsItWas() async throws {
            let sample = BinaryRunner.projectRoot.appendingPathComponent("Samples/busy-airport.cu8").path
            let daemon = try Daemon([
                "--replay", sample, "--throttle", "--loop", "--http", "127.0.0.1:0", "--no-metrics"
            ])
            defer { _ = daemon.stop() }
            let port = try WebEndToEndTests.webPort(of: daemon)
            #expect(try await Self.get(port, "/metrics").status == 404)
            #expect(try await Self.get(port, "/data/aircraft.json").status == 200)
        }

        @Test(.requires(.venvModule("prometheus_client")))
        func aReplaysMetricsParseGrowAndAgreeWithAircraftAndStatsJSON() async throws {
            guard
                let python = WebEndToEndTests.venvPython(
                    importing: "prometheus_client",
                    makeTarget: ".venv/.prometheus-client")
            else { return }
            let sample = BinaryRunner.projectRoot.appendingPathComponent("Samples/busy-airport.cu8").path
            let json = FileManager.default.temporaryDirectory.appendingPathComponent(
                "aviator-metrics-\(UUID().uuidString.prefix(8))"
            ).path
            try FileManager.default.createDirectory(atPath: json, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: json) }
            let daemon = try Daemon([
                "--replay", sample, "--throttle", "--loop", "--receiver", "52.3,4.75",
                "--http", "127.0.0.1:0", "--json-dir", json
            ])
            defer { _ = daemon.stop() }
            let port = try WebEndToEndTests.webPort(of: daemon)
            let deadline = Date().addingTimeInterval(20)
            while try await Self.aircraftJSON(port).withPosition < 3, Date() < deadline {
                try await Task.sleep(for: .milliseconds(250))
            }
            // The recording lasts 0.8 s: after a few passes its sky no longer grows.
            try await Task.sleep(for: .seconds(3))

            // One moment, bracketed: stats.json and aircraft.json before, the scrape, both after.
            let statsBefore = try await Self.statsTotal(in: json, after: 0)
            let before = try await Self.aircraftJSON(port)
            let text = try await Self.scrape(port)
            let after = try await Self.aircraftJSON(port)
            let statsAfter = try await Self.statsTotal(in: json, after: Date().timeIntervalSince1970)
            let first = try Self.parse(text, python: python)

            let messages = try #require(first.total("aviator_messages_total"))
            #expect(
                before.messages <= messages && messages <= after.messages,
                "aircraft.json's messages \(before.messages)…\(after.messages) bracket /metrics' \(messages)")
            print("messages \(messages): aircraft.json before \(before.messages), after \(after.messages)")
            let aircraft = try #require(first.total("aviator_aircraft"))
            #expect(aircraft > 0)
            #expect(
                abs(aircraft - Double(after.aircraft)) <= 2, "\(aircraft) against aircraft.json's \(after.aircraft)")
            let withPosition = try #require(first.total("aviator_aircraft_with_position"))
            #expect(withPosition > 0)
            #expect(
                abs(withPosition - Double(after.withPosition)) <= 2,
                "\(withPosition) against aircraft.json's \(after.withPosition)")

            // The source is named; with one source its frames are every message.
            let sources = first.samples.filter { $0.name == "aviator_source_frames_total" }
            #expect(sources.map { $0.labels["source"] } == ["replay"])
            #expect(sources.first.map { $0.value >= messages && $0.value <= after.messages } == true)

            // stats.json counts from its publisher's first snapshot, a moment after the replay
            // may have started: /metrics may be ahead of its totals by that first moment, one
            // second of the replay at most.
            let seconds = max(1, Self.number(statsAfter, "end") - Self.number(statsAfter, "start"))
            for (metric, path) in [
                ("aviator_samples_processed_total", ["local", "samples_processed"]),
                ("aviator_frames_accepted_total", ["local", "accepted"]),
                ("aviator_preambles_total", ["local", "modes"]),
                ("aviator_positions_total", ["cpr", "global_ok"])
            ] {
                let value = try #require(first.total(metric), "\(metric)")
                let lower = Self.number(statsBefore, path[0], path[1])
                let upper = Self.number(statsAfter, path[0], path[1])
                print("\(metric) \(value): stats.json before \(lower), after \(upper)")
                #expect(value > 0, "\(metric)")
                #expect(
                    lower <= value && value <= upper * (1 + 1 / seconds) + 1,
                    "\(metric) \(value) against stats.json's \(lower)…\(upper)")
            }
            let demodulation = try #require(first.total("aviator_demodulator_cpu_seconds_total"))
            #expect(demodulation * 1000 >= Self.number(statsBefore, "cpu", "demod") - 1)
            #expect(demodulation * 1000 <= Self.number(statsAfter, "cpu", "demod") * (1 + 1 / seconds) + 1)

            // In the first minute, the level is the mean since the start, as stats.json's total.
            let signal = try #require(first.total("aviator_signal_level_dbfs"))
            let noise = try #require(first.total("aviator_noise_level_dbfs"))
            #expect(
                abs(signal - Self.number(statsAfter, "local", "signal")) <= 0.5,
                "signal \(signal) dBFS against stats.json's \(Self.number(statsAfter, "local", "signal"))")
            #expect(noise < signal && signal < 0)

            // Every family is typed; every counter is a counter.
            for (name, type) in first.types {
                #expect(name.hasPrefix("aviator_"))
                let counted = first.samples.contains { $0.name == name + "_total" }
                #expect(type == (counted ? "counter" : "gauge"), "\(name): \(type)")
            }

            // A second scrape: no counter went back, and the replay's counts grew.
            try await Task.sleep(for: .seconds(2))
            let second = try Self.parse(try await Self.scrape(port), python: python)
            for sample in first.samples where sample.name.hasSuffix("_total") {
                let later = second.samples.first { $0.name == sample.name && $0.labels == sample.labels }
                #expect((later?.value ?? -1) >= sample.value, "\(sample.name) \(sample.labels)")
            }
            for metric in [
                "aviator_messages_total", "aviator_source_frames_total", "aviator_samples_processed_total",
                "aviator_frames_accepted_total", "aviator_http_requests_total"
            ] {
                #expect((second.total(metric) ?? 0) > (first.total(metric) ?? 0), "\(metric) grows")
            }
        }
    }
}
