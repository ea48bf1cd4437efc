import Foundation
import NIOSSL
import TestSupport
import Testing

/// The web radar in a real browser: headless Chromium, with the phone's position and compass
/// emulated, against the daemon replaying a sample over HTTPS with its self-signed certificate
/// (the browser trusts that one certificate, as a phone does once told to). The page's
/// accessible list, where it draws each aircraft, and the card of a tapped aircraft are
/// checked against the frames the daemon sends a client of the test's own with the same
/// observer.
@Suite(.serialized, .tags(.slow)) struct WebAppBrowserTests {
    /// The receiver of the replay; the phone is about 4 km west-north-west of it, pointing east.
    static let receiver = "52.3,4.75"
    static let phone = (lat: 52.315, lon: 4.695)
    /// What the emulated compass reads: a magnetic heading.
    static let heading = 90.0
    /// The app's range on a first visit (settings.js).
    static let appRangeKm = 50.0

    @Test(.requires(.program("chromium"))) func theRadarShowsTheFeedFromThePhonesPlaceAndTurnsWithIt() async throws {
        guard HeadlessBrowser.available() else { return }
        let sample = BinaryRunner.projectRoot.appendingPathComponent("Samples/busy-airport.cu8").path
        let state = FileManager.default.temporaryDirectory.appendingPathComponent(
            "aviator-browser-tls-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: state) }
        let daemon = try Daemon([
            "--replay", sample, "--throttle", "--loop", "--receiver", Self.receiver,
            "--http", "127.0.0.1:0", "--frame-interval", "1",
            "--tls-self-signed", "--state-dir", state.path
        ])
        defer { _ = daemon.stop() }
        let port = try WebEndToEndTests.webPort(of: daemon, scheme: "https")
        // The browser trusts the certificate the daemon made, after the test compared it with
        // the fingerprint the daemon logged, as a user does on the phone.
        let certificate = state.appendingPathComponent("tls-cert.pem").path
        #expect(try TLSEndToEndTests.opensslFingerprint(certificate) == TLSEndToEndTests.loggedFingerprint(daemon))
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(certificate))

        // The test's own client sees the sky from the phone's place, with the app's range.
        let frames = FrameLog()
        let view =
            #"{"type":"view","range_km":\#(Self.appRangeKm),"observer":{"lat":\#(Self.phone.lat),"lon":\#(Self.phone.lon)}}"#
        let follower = Task { try await frames.follow(url: "wss://localhost:\(port)/feed", tls: tls, view: view) }
        defer { frames.stop() }
        let deadline = Date().addingTimeInterval(60)
        while !frames.isAcknowledged, Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        #expect(frames.isAcknowledged, "the test's own feed client got no view acknowledgement")
        // The app turns the compass's magnetic reading to true north with the declination the
        // feed gives at the phone's place (a couple of degrees east there).
        let declination = try #require(frames.declinationDeg, "the acknowledgement has no declination")
        let trueHeading = (Self.heading + declination).truncatingRemainder(dividingBy: 360)

        let screenshots =
            ProcessInfo.processInfo.environment["WEB_SCREENSHOTS"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent(
                "aviator-web-shots-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: screenshots, withIntermediateDirectories: true)
        let report = try await HeadlessBrowser.run([
            "check", "https://localhost:\(port)/", "--cert", certificate, "--lat", "\(Self.phone.lat)", "--lon",
            "\(Self.phone.lon)",
            "--heading", "\(Self.heading)", "--expect-heading", "\(trueHeading)", "--screenshots", screenshots.path
        ])
        frames.stop()
        _ = await follower.result

        #expect(report["failure"] == nil, "\(report["failure"] ?? "")")
        let problems = report["problems"] as? [String] ?? ["no console report"]
        #expect(problems.isEmpty, "console errors or CSP violations: \(problems)")
        let page = report["page"] as? [String: Any]
        #expect(
            page?["protocol"] as? String == "https:" && page?["secure"] as? Bool == true,
            "not a secure https page: \(page ?? [:])")
        // The first reading of the list whose frame the test's own client also got.
        let snapshots = report["snapshots"] as? [[String: Any]] ?? []
        let snapshot = try #require(
            snapshots.first { ($0["seq"] as? Int).flatMap(frames.aircraft(seq:)) != nil },
            "none of the \(snapshots.count) readings of the list is of a frame the test's client got")
        try Self.checkList(snapshot, frames: frames)
        try Self.checkTurning(snapshot, heading: trueHeading)
        // The desktop's readings, and one on the phone (two device pixels per CSS pixel).
        try Self.checkGroundAndLabels(snapshots + [report["phoneSnapshot"] as? [String: Any] ?? [:]])
        try Self.checkCard(report, frames: frames)
        try Self.checkLayout(report, screenshots: screenshots)
        try Self.checkOffline(report)
        try Self.checkKidMode(report)
    }

    /// Kid mode draws the aircraft flying and not those on the ground, which the list still
    /// names; with "Kid mode: aircraft on the ground too" it draws them as well.
    static func checkKidMode(_ report: [String: Any]) throws {
        let kid = try #require(report["kid"] as? [String: [String: Int]], "the kid mode step did not run")
        let hidden = try #require(kid["kid"])
        let shown = try #require(kid["kidGround"])
        #expect((hidden["groundListed"] ?? 0) > 0, "no aircraft on the ground to judge: \(hidden)")
        #expect(hidden["groundDrawn"] == 0, "kid mode drew aircraft on the ground: \(hidden)")
        #expect((hidden["flyingDrawn"] ?? 0) > 0, "kid mode drew no aircraft flying: \(hidden)")
        #expect((shown["groundDrawn"] ?? 0) > 0, "kid mode with the setting drew none on the ground: \(shown)")
        print(
            "browser kid mode: \(hidden["flyingDrawn"] ?? 0) flying drawn, \(hidden["groundListed"] ?? 0) on the ground "
                + "listed, none drawn; with the setting \(shown["groundDrawn"] ?? 0) drawn")
    }

    /// Offline, the app opens from the service worker's copy and waits; online, it reconnects.
    static func checkOffline(_ report: [String: Any]) throws {
        // A frame whose drawing throws is logged and skipped; the radar goes on drawing.
        let failures = try #require(report["frame_failures"] as? [String: Any], "the failing-frame step did not run")
        #expect((failures["drawnAfter"] as? Int ?? 0) > 50)
        #expect((failures["logged"] as? Int ?? 0) >= 2, "\(failures)")
        print(
            "browser failing frames: 2 drawings made to throw were logged, and \(failures["drawnAfter"] ?? 0) labels drawn after them"
        )
        let offline = try #require(report["offline"] as? [String: Any], "the offline step did not run")
        #expect(offline["status"] as? String == "waiting for aviator-adsb…")
        #expect(offline["aircraft"] as? Int == 0)
        let seconds = try #require(offline["reconnectSeconds"] as? Double, "no reconnection")
        print("browser offline: the app opened from its copy and waited; back online it reconnected in \(seconds) s")
    }

    /// The list is the feed's frame of the same number: the same aircraft, those flying nearest
    /// first, then those on the ground nearest first, with the distances, bearings and
    /// elevations seen from the phone, in words and as data.
    static func checkList(_ snapshot: [String: Any], frames: FrameLog) throws {
        #expect(snapshot["rangeKm"] as? Double == appRangeKm)
        #expect((snapshot["status"] as? String)?.contains("from here") == true)
        let seq = try #require(snapshot["seq"] as? Int)
        let feed = try #require(frames.aircraft(seq: seq), "the test's own client has no frame \(seq)")
        let items = try #require(snapshot["items"] as? [[String: Any]])
        #expect(items.count >= 5, "too few aircraft to judge: \(items.count)")
        #expect(Set(items.compactMap { $0["icao"] as? String }) == Set(feed.keys), "list and frame \(seq) differ")
        var previous = -1.0
        var onGround = false
        for item in items {
            let icao = try #require(item["icao"] as? String)
            guard let plane = feed[icao] else { continue }
            let text = item["text"] as? String ?? ""
            let grounded = plane["on_ground"] as? Bool == true
            #expect(item["onGround"] as? Bool == grounded, "\(icao)")
            #expect(!onGround || grounded, "\(icao), flying, is listed after an aircraft on the ground")
            if grounded && !onGround {
                onGround = true
                previous = -1
            }
            if let km = plane["ground_km"] as? Double {
                #expect(item["distanceKm"] as? Double == km, "\(icao)")
                // One decimal, halves rounded away from zero, as the page does.
                #expect(text.contains(String(format: "%.1f km", (km * 10).rounded() / 10)), "\(icao): \(text)")
                #expect(km >= previous, "not nearest first at \(icao)")
                previous = km
            }
            if let azimuth = plane["azimuth_deg"] as? Double {
                #expect(item["azimuthDeg"] as? Double == azimuth, "\(icao)")
                #expect(text.contains("bearing \(Int(azimuth.rounded()) % 360)°"), "\(icao): \(text)")
            }
            if let elevation = plane["elevation_deg"] as? Double {
                #expect(item["elevationDeg"] as? Double == elevation, "\(icao)")
                let whole = Int(elevation.rounded())
                #expect(text.contains(whole < 0 ? "\(-whole)° down" : "\(whole)° up"), "\(icao): \(text)")
            }
        }
        print("browser list: \(items.count) aircraft of frame \(seq), as the feed sees them from the phone")
    }

    /// Compass 90° (magnetic), so a true heading a little more: every aircraft is drawn at its
    /// azimuth less the true heading (clockwise from the top) and at its distance on the scale
    /// of the rings; one due east is near the top, one due north near the left.
    static func checkTurning(_ snapshot: [String: Any], heading: Double) throws {
        #expect(snapshot["headingDeg"] as? Double == heading.rounded())
        let centre = try #require(snapshot["centre"] as? [Double])
        let radius = try #require(snapshot["radius"] as? Double)
        let items = try #require(snapshot["items"] as? [[String: Any]])
        var drawn: [(azimuth: Double, dx: Double, dy: Double)] = []
        var worst = 0.0
        // Between frames aircraft move on by dead reckoning: a few pixels at most, in any
        // direction, and one drawn on top of another is nudged 4 px at most; so the same slack
        // bounds the drawn distance and, seen from the centre, the drawn angle.
        let slack = 4 + radius * 0.01
        for item in items {
            guard let x = item["x"] as? Double, let y = item["y"] as? Double,
                let azimuth = item["azimuthDeg"] as? Double,
                let km = item["distanceKm"] as? Double
            else { continue }
            let dx = x - centre[0]
            let dy = y - centre[1]
            drawn.append((azimuth, dx, dy))
            let r = hypot(dx, dy)
            #expect(abs(r - km / appRangeKm * radius) <= slack, "\(item["icao"] ?? ""): drawn \(r) px from the centre")
            guard r > 25 else { continue }
            let drawnAngle = atan2(dx, -dy) * 180 / .pi
            var error = abs((drawnAngle - (azimuth - heading)).truncatingRemainder(dividingBy: 360))
            error = min(error, 360 - error)
            worst = max(worst, error)
            #expect(
                error <= 2 + atan(slack / r) * 180 / .pi,
                "\(item["icao"] ?? ""): drawn at \(drawnAngle)°, azimuth \(azimuth)°")
        }
        #expect(drawn.count >= 5, "too few aircraft drawn: \(drawn.count)")
        print(
            "browser turning: \(drawn.count) aircraft drawn at azimuth − \(String(format: "%.2f", heading))° (compass 90° magnetic), worst \(String(format: "%.2f", worst))°"
        )

        let difference = { (a: Double, b: Double) in min(abs(a - b), 360 - abs(a - b)) }
        let east = try #require(
            drawn.filter { $0.dx * $0.dx + $0.dy * $0.dy > 400 }.min {
                difference($0.azimuth, 90) < difference($1.azimuth, 90)
            })
        let north = try #require(
            drawn.filter { $0.dx * $0.dx + $0.dy * $0.dy > 400 }.min {
                difference($0.azimuth, 0) < difference($1.azimuth, 0)
            })
        #expect(difference(east.azimuth, 90) <= 30, "no aircraft roughly east: \(east.azimuth)°")
        #expect(east.dy < 0 && abs(east.dx) < abs(east.dy), "the aircraft at \(east.azimuth)° is not drawn at the top")
        #expect(difference(north.azimuth, 0) <= 30, "no aircraft roughly north: \(north.azimuth)°")
        #expect(
            north.dx < 0 && abs(north.dy) < abs(north.dx), "the aircraft at \(north.azimuth)° is not drawn on the left")
    }

    /// Aircraft on the ground are drawn smaller than any flying (the busy sample is an airport,
    /// with both), and no two callsigns overlap on the scope, in every reading of the list.
    static func checkGroundAndLabels(_ snapshots: [[String: Any]]) throws {
        var labels = 0
        for snapshot in snapshots {
            let items = try #require(snapshot["items"] as? [[String: Any]])
            let drawn = items.filter { $0["size"] as? Double != nil }
            let ground = drawn.filter { $0["onGround"] as? Bool == true }.compactMap { $0["size"] as? Double }
            let flying = drawn.filter { $0["onGround"] as? Bool != true }.compactMap { $0["size"] as? Double }
            #expect(!ground.isEmpty && !flying.isEmpty, "\(ground.count) drawn on the ground, \(flying.count) flying")
            if let largest = ground.max(), let smallest = flying.min() {
                #expect(largest < smallest, "on the ground up to \(largest) px, flying from \(smallest) px")
            }
            // Boxes written to a tenth of a pixel: ones that touch may seem to overlap by that.
            let boxes = items.compactMap { item -> (icao: String, box: [Double])? in
                guard let icao = item["icao"] as? String, let box = item["label"] as? [Double], box.count == 4 else {
                    return nil
                }
                return (icao, box)
            }
            labels = max(labels, boxes.count)
            for (i, a) in boxes.enumerated() {
                for b in boxes[(i + 1)...] {
                    let apart =
                        a.box[0] + a.box[2] <= b.box[0] + 0.2 || b.box[0] + b.box[2] <= a.box[0] + 0.2
                        || a.box[1] + a.box[3] <= b.box[1] + 0.2 || b.box[1] + b.box[3] <= a.box[1] + 0.2
                    #expect(apart, "the callsigns of \(a.icao) \(a.box) and \(b.icao) \(b.box) overlap")
                }
            }
        }
        #expect(labels >= 3, "only \(labels) callsigns drawn")
        let sample = snapshots.last?["items"] as? [[String: Any]] ?? []
        let sizes = { (ground: Bool) in
            sample.filter { ($0["onGround"] as? Bool == true) == ground }.compactMap { $0["size"] as? Double }
        }
        print(
            "browser ground: drawn \(sizes(true).max() ?? 0) px at most on the ground, \(sizes(false).min() ?? 0) px "
                + "at least flying; up to \(labels) callsigns, none overlapping")
    }

    /// A tap on an aircraft opens its card, which says where to look with the feed's elevation.
    static func checkCard(_ report: [String: Any], frames: FrameLog) throws {
        let tapped = try #require(report["tapped"] as? [String: Any], "no aircraft to tap")
        let cards = report["cards"] as? [[String: Any]] ?? []
        let card = try #require(
            cards.first { ($0["seq"] as? Int).flatMap(frames.aircraft(seq:)) != nil },
            "tapping did not open the card, or none of its readings is of a frame the test's client got")
        #expect(card["icao"] as? String == tapped["icao"] as? String)
        let icao = try #require(card["icao"] as? String)
        let seq = try #require(card["seq"] as? Int)
        let plane = try #require(frames.aircraft(seq: seq)?[icao], "\(icao) is not in frame \(seq)")
        let elevation = try #require(plane["elevation_deg"] as? Double)
        let azimuth = try #require(plane["azimuth_deg"] as? Double)
        #expect(card["elevationDeg"] as? Double == elevation, "card \(card["elevationDeg"] ?? ""), feed \(elevation)")
        #expect(card["azimuthDeg"] as? Double == azimuth, "card \(card["azimuthDeg"] ?? ""), feed \(azimuth)")
        let placeText = card["where"] as? String ?? ""
        let whole = Int(elevation.rounded())
        #expect(placeText.hasPrefix("\(Int(azimuth.rounded()) % 360)°"), "\(placeText)")
        #expect(placeText.contains(whole > 0 ? "\(whole)° above the horizon" : "horizon"), "\(placeText)")
        print("browser card: \(card["title"] ?? icao): \(placeText); \(card["turn"] ?? "")")
    }

    /// No sideways scrolling, the controls on the screen, a radar that uses it, and a
    /// screenshot of each.
    static func checkLayout(_ report: [String: Any], screenshots: URL) throws {
        let layout = try #require(report["layout"] as? [String: [String: Any]])
        for (name, width, smallestRadius) in [("phone", 360.0, 140.0), ("desktop", 1280.0, 300.0)] {
            let page = try #require(layout[name], "no \(name) layout")
            #expect(page["width"] as? Double == width, "\(name)")
            #expect((page["scrollWidth"] as? Double ?? .infinity) <= width, "\(name) scrolls sideways")
            #expect(
                (page["scrollHeight"] as? Double ?? .infinity) <= (page["height"] as? Double ?? 0), "\(name) scrolls")
            #expect(page["buttonsInside"] as? Bool == true, "\(name): a control is off the screen")
            #expect((page["smallestButton"] as? Double ?? 0) >= 36, "\(name): a control is too small to tap")
            #expect((page["radius"] as? Double ?? 0) >= smallestRadius, "\(name): radar radius \(page["radius"] ?? 0)")
            #expect(page["cardInside"] as? Bool == true, "\(name): the card is off the screen")
            let shot = screenshots.appendingPathComponent("web-\(name).png")
            let data = try #require(FileManager.default.contents(atPath: shot.path), "no \(name) screenshot")
            #expect(data.starts(with: [0x89, 0x50, 0x4E, 0x47]) && data.count > 10_000, "\(name) screenshot")
        }
        #expect(layout["desktop"]?["listVisible"] as? Bool == true, "the list is not beside the radar on a wide screen")
        print("browser layout: 360×640 and 1280×800 fit; screenshots in \(screenshots.path)")
    }
}

/// The web radar's cost on a slow phone: 300 aircraft with labels and trails, the CPU slowed
/// down four times. Prints the frame rate, the median and 95th-percentile time the page spends
/// drawing a frame (the Performance API's measures), and the heap and DOM over time. It loads
/// both cores, so it runs only when asked for: `make web-perf` (`WEB_PERF_SECONDS`, 20).
///
/// The page's own time per frame is judged with the CPU slowed down; the frame rate at the
/// machine's own speed. Headless Chromium here has no GPU: it rasterises and composites in
/// software on the main thread, which the slow-down slows as well, so the slowed frame rate
/// measures that software path, not the app (a phone composites on its GPU).
@Suite(
    .serialized,
    .enabled(if: ProcessInfo.processInfo.environment["WEB_PERF_SECONDS"] != nil, "a benchmark: make web-perf"))
struct WebAppPerformanceTests {
    /// The scope, and the sky view with the phone swaying (every marker moves on every frame).
    @Test(.requires(.program("chromium")), arguments: ["scope", "sky"])
    func threeHundredAircraftOnASlowPhone(view: String) async throws {
        guard HeadlessBrowser.available() else { return }
        let seconds = ProcessInfo.processInfo.environment["WEB_PERF_SECONDS"].flatMap(Double.init) ?? 20
        let sky = try BusySky(label: "web-perf")
        defer { sky.remove() }
        let daemon = try sky.daemon()
        defer { _ = daemon.stop() }
        let port = try WebEndToEndTests.webPort(of: daemon)

        let report = try await HeadlessBrowser.run(
            [
                "perf", "http://127.0.0.1:\(port)/", "--seconds", "\(seconds)",
                "--throttle", "4", "--aircraft", "250", "--view", view
            ],
            timeout: seconds + 120)
        #expect(report["failure"] == nil, "\(report["failure"] ?? "")")
        #expect((report["problems"] as? [String])?.isEmpty == true, "\(report["problems"] ?? "")")
        let fps = try #require(report["fps"] as? Double)
        let median = try #require(report["medianMs"] as? Double)
        let memory = try #require(report["memory"] as? [[String: Any]]).map { sample in
            sample.mapValues { ($0 as? NSNumber)?.doubleValue ?? 0 }
        }
        let first = try #require(memory.first)
        let last = try #require(memory.last)
        let unthrottled = try #require(report["unthrottled"] as? [String: Any])
        let fullSpeedFPS = try #require(unthrottled["fps"] as? Double)
        print(
            "web-perf \(view): \(report["aircraft"] ?? 0) aircraft, viewport \(report["viewport"] ?? ""); at full speed "
                + "\(fullSpeedFPS) fps, frame time median \(unthrottled["medianMs"] ?? 0) ms; CPU slowed 4x: "
                + "\(fps) fps, frame time median \(median) ms, p95 \(report["p95Ms"] ?? 0) ms, max \(report["maxMs"] ?? 0) ms"
        )
        print(
            "web-perf memory over \(report["seconds"] ?? 0) s (after GC): "
                + memory.map { "\($0["t"] ?? 0) s \($0["heapMB"] ?? 0) MB \(Int($0["nodes"] ?? 0)) nodes" }.joined(
                    separator: ", "))
        #expect((report["aircraft"] as? Int ?? 0) >= 250)
        #expect(fullSpeedFPS >= 55, "frame rate \(fullSpeedFPS) at full speed")
        #expect(fps > 0, "no frames with the CPU slowed down")
        #expect(median < 8, "median frame time \(median) ms")
        #expect(
            (last["heapMB"] ?? 0) - (first["heapMB"] ?? 0) < 2,
            "the heap grew from \(first["heapMB"] ?? 0) to \(last["heapMB"] ?? 0) MB")
        #expect((last["nodes"] ?? 0) - (first["nodes"] ?? 0) < 200, "DOM nodes grew")
    }
}

/// The service worker keeps a copy of every file of the app, so none is missing offline.
@Suite struct WebAppOfflineCopyTests {
    @Test func theServiceWorkerListsEveryFileOfTheApp() throws {
        let folder = BinaryRunner.projectRoot.appendingPathComponent("Sources/Web/App")
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") })
        let worker = try String(contentsOf: folder.appendingPathComponent("sw.js"), encoding: .utf8)
        let list = try #require(worker.range(of: #"const FILES = \[[^\]]*\]"#, options: .regularExpression))
        let named = Set(
            worker[list].split(separator: "\"").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) })
        #expect(named.contains("./"), "the page itself")
        #expect(named.subtracting(["./"]) == files.subtracting(["sw.js"]), "sw.js FILES and Sources/Web/App differ")
    }
}
