import Foundation
import NIOSSL
import TestSupport
import Testing

/// The sky view in a real browser: headless Chromium with a fake camera (and once with the
/// camera refused), the phone's position and its whole orientation emulated, against the daemon
/// replaying a simulated sky of 300 aircraft over HTTPS. Every aircraft's marker must be where
/// a pinhole camera of the test's own puts the aircraft's azimuth and elevation from the feed,
/// within 2% of the screen's width; aircraft outside the picture get arrows at the edge that
/// point the right way; a tapped marker opens its card; and nothing is logged as an error.
@Suite(.serialized, .tags(.slow)) struct WebAppSkyViewTests {
    static let phone = (lat: 52.315, lon: 4.695)
    /// The app's range on a first visit (settings.js), which the test's own clients ask for too.
    static let appRangeKm = 50.0
    /// Where the arrows sit, in from the screen's edge (skymarkers.js), and at the bottom in
    /// from 8 px above the view's controls (skyview.js).
    static let edgeMargin = 30.0
    static let controlsClearance = 8.0
    /// The views (scripts/webapp_sky.py) seen from a place the test picks, not the phone's.
    static let placedViews = ["up", "landscape"]

    @Test(.requires(.program("chromium"))) func eachAircraftIsWhereTheCameraSeesIt() async throws {
        guard HeadlessBrowser.available() else { return }
        let sky = try BusySky(label: "sky-view")
        defer { sky.remove() }
        let state = sky.folder.appendingPathComponent("state")
        let daemon = try sky.daemon(["--frame-interval", "1", "--tls-self-signed", "--state-dir", state.path])
        defer { _ = daemon.stop() }
        let port = try WebEndToEndTests.webPort(of: daemon, scheme: "https")
        let certificate = state.appendingPathComponent("tls-cert.pem").path
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(certificate))

        // The test's own clients see the sky from where the page does: the phone's place, then
        // the places it picks for the views that need an aircraft where they look.
        let feed = Lookouts(url: "wss://localhost:\(port)/feed", tls: tls, rangeKm: Self.appRangeKm)
        defer { feed.stop() }
        let home = try await feed.follow("home", at: Self.phone)
        let seen = try #require(await home.latest(within: 60), "the phone's client got no frame")
        for (name, place) in Self.places(for: Self.placedViews, in: seen) { _ = try await feed.follow(name, at: place) }

        let screenshots =
            ProcessInfo.processInfo.environment["WEB_SCREENSHOTS"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent(
                "aviator-sky-shots-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: screenshots, withIntermediateDirectories: true)
        let placed = Self.placedViews.flatMap { name in
            feed.log(name).map { ["--place", "\(name)=\($0.place.lat),\($0.place.lon),\($0.declination)"] } ?? []
        }
        let report = try await HeadlessBrowser.run(
            [
                "sky", "https://localhost:\(port)/", "--cert", certificate, "--lat", "\(Self.phone.lat)",
                "--lon", "\(Self.phone.lon)", "--declination", "\(home.declination)", "--screenshots",
                screenshots.path
            ] + placed, timeout: 300)
        feed.stop()
        try Self.judge(report, feed: feed, screenshots: screenshots)
    }

    /// The whole report: no console error, every view right, at least one marker in each of the
    /// three orientations, the calibration and the tap.
    static func judge(_ report: [String: Any], feed: Lookouts, screenshots: URL) throws {
        #expect(report["failure"] == nil, "\(report["failure"] ?? "")")
        let problems = report["problems"] as? [String] ?? ["no console report"]
        #expect(problems.isEmpty, "console errors or CSP violations: \(problems)")
        let fov = try #require(report["fovDeg"] as? Double)
        let views = try #require(report["views"] as? [[String: Any]])
        #expect(views.count == 5, "\(views.count) views")
        var arrows = 0
        for view in views {
            let name = try #require(view["name"] as? String)
            // "landscape-drawn" is seen from where "landscape" is.
            let place = placedViews.first { name == $0 || name.hasPrefix($0 + "-") } ?? "home"
            let log = try #require(feed.log(place))
            let counted = try checkView(view, fov: fov, declination: log.declination, frames: log.frames)
            #expect(counted.markers >= 1, "\(name): no aircraft in the picture to judge")
            arrows += counted.arrows
            let shot = try #require(FileManager.default.contents(atPath: screenshots.path + "/sky-\(name).png"))
            #expect(shot.starts(with: [0x89, 0x50, 0x4E, 0x47]) && shot.count > 10_000, "\(name) screenshot")
        }
        let home = try #require(feed.log("home"))
        let refused = try #require(views.first { $0["name"] as? String == "portrait-drawn" })
        try checkCalibration(refused, fov: fov, declination: home.declination, frames: home.frames)
        #expect(arrows >= 5, "only \(arrows) arrows in all the views")
        let tap = try #require(report["tap"] as? [String: Any], "no marker was tapped")
        let card = tap["card"] as? [String: Any]
        #expect(card?["icao"] as? String == tap["tapped"] as? String, "tapped \(tap), the card says \(card ?? [:])")
        print("browser sky view: a tap on \(tap["tapped"] ?? "") opened its card; screenshots in \(screenshots.path)")
    }

    /// Places from which an aircraft of `feed` stands where a view looks, so that each view has
    /// an aircraft to judge (a chance place seldom has one overhead or 45° up): for `up`, right
    /// below one; for `landscape` (300°, 45° up), its altitude away from another, towards 120°.
    /// The recording loops every six seconds, so the aircraft picked are those that move least
    /// across the sky in that time: high and slow.
    static func places(for views: [String], in feed: [String: [String: Any]]) -> [(String, (lat: Double, lon: Double))]
    {
        let candidates = feed.values.compactMap { plane -> (lat: Double, lon: Double, altM: Double, sweep: Double)? in
            guard plane["on_ground"] as? Bool != true, let lat = plane["lat"] as? Double,
                let lon = plane["lon"] as? Double,
                let feet = plane["alt_geo_ft"] as? Double ?? plane["alt_baro_ft"] as? Double, feet >= 8_000
            else { return nil }
            let metres = feet * 0.3048
            return (lat, lon, metres, (plane["ground_speed_kt"] as? Double ?? 500) * 0.5144 * 6 / metres)
        }.sorted { $0.sweep < $1.sweep }
        var chosen: [(String, (lat: Double, lon: Double))] = []
        for (name, plane) in zip(views, candidates) {
            let distance = name == "up" ? 0 : plane.altM
            let bearing = 120 * Double.pi / 180
            let earth = 6_371_000.0
            let lat = plane.lat + distance * cos(bearing) / earth * 180 / .pi
            let lon = plane.lon + distance * sin(bearing) / (earth * cos(plane.lat * .pi / 180)) * 180 / .pi
            chosen.append((name, (lat, lon)))
        }
        return chosen
    }

    /// One view: the first reading of a frame the test's client has, its markers against the
    /// test's projection, every aircraft in the picture marked, and each arrow's direction.
    static func checkView(
        _ view: [String: Any], fov: Double, declination: Double, frames: FrameLog
    ) throws -> (markers: Int, arrows: Int) {
        let name = try #require(view["name"] as? String)
        let snapshots = try #require(view["snapshots"] as? [[String: Any]])
        let snapshot = try #require(
            snapshots.first { ($0["seq"] as? Int).flatMap(frames.aircraft(seq:)) != nil },
            "\(name): none of the readings is of a frame the test's client got")
        let feed = try #require((snapshot["seq"] as? Int).flatMap(frames.aircraft(seq:)))
        let allowed = view["cameraAllowed"] as? Bool == true
        #expect(
            snapshot["camera"] as? String == (allowed ? "on" : "refused"), "\(name): camera \(snapshot["camera"] ?? "")"
        )
        let screen = try #require(snapshot["screen"] as? [Double])
        let video = snapshot["video"] as? [Double]
        #expect((video != nil) == allowed, "\(name): video \(video ?? [])")
        let camera = SkyCamera(
            rotation: try #require(view["rotation"] as? [Double]), declination: declination,
            screenAngle: try #require(view["screenAngle"] as? Double), width: screen[0], height: screen[1], fov: fov,
            video: video)
        let tolerance = 0.02 * screen[0]
        var worst = 0.0
        let drawn = try #require(snapshot["markers"] as? [[String: Any]])
        for marker in drawn {
            let icao = try #require(marker["icao"] as? String)
            let plane = try #require(feed[icao], "\(name): \(icao) is not in the frame")
            let place = try #require(camera.place(plane), "\(name): \(icao) is marked but not in front of the camera")
            let error = hypot((marker["x"] as? Double ?? .nan) - place.x, (marker["y"] as? Double ?? .nan) - place.y)
            worst = max(worst, error)
            #expect(error <= tolerance, "\(name): \(icao) drawn \(error) px from \(place)")
        }
        // Every aircraft above the horizon well inside the picture has its marker.
        let marked = Set(drawn.compactMap { $0["icao"] as? String })
        for (icao, plane) in feed where (plane["elevation_deg"] as? Double ?? -90) >= 0 {
            guard let place = camera.place(plane), place.x > 10, place.x < screen[0] - 10, place.y > 10,
                place.y < screen[1] - 10
            else { continue }
            #expect(marked.contains(icao), "\(name): \(icao) at \(place) has no marker")
        }
        let edges = try #require(snapshot["arrows"] as? [[String: Any]])
        for arrow in edges {
            let bottom = (snapshot["toolsTop"] as? Double ?? screen[1]) - controlsClearance
            try checkArrow(arrow, view: name, feed: feed, camera: camera, bottom: bottom)
        }
        print(
            "browser sky view \(name): \(drawn.count) markers, worst \(String(format: "%.1f", worst)) px from the "
                + "projection (allowed \(String(format: "%.1f", tolerance))), \(edges.count) arrows")
        return (drawn.count, edges.count)
    }

    /// A calibrating tap 50 px right of a marker: the view takes the aircraft nearest the tap's
    /// direction (in the frame it had then) to be really there and turns by the difference in azimuth, so afterwards
    /// every marker is where the test's camera, turned by the same, puts its aircraft.
    static func checkCalibration(_ view: [String: Any], fov: Double, declination: Double, frames: FrameLog) throws {
        let calibration = try #require(view["calibration"] as? [String: Any], "no calibration")
        let tap = try #require(calibration["tap"] as? [Double])
        let after = try #require(calibration["after"] as? [String: Any])
        let tapped = try #require(
            (calibration["seq"] as? Int).flatMap(frames.aircraft(seq:)), "no frame for the calibrating tap")
        let feed = try #require((after["seq"] as? Int).flatMap(frames.aircraft(seq:)), "no frame after calibrating")
        let screen = try #require(after["screen"] as? [Double])
        let rotation = try #require(view["rotation"] as? [Double])
        let screenAngle = try #require(view["screenAngle"] as? Double)
        let before = SkyCamera(
            rotation: rotation, declination: declination, screenAngle: screenAngle, width: screen[0],
            height: screen[1], fov: fov, video: nil)
        let seen = before.direction(x: tap[0], y: tap[1])
        let nearest = try #require(
            tapped.values.filter { $0["azimuth_deg"] as? Double != nil && $0["elevation_deg"] as? Double != nil }.min {
                before.angle(seen, $0) < before.angle(seen, $1)
            })
        let azimuth = try #require(nearest["azimuth_deg"] as? Double)
        let turn = (azimuth - seen.azimuth + 540).truncatingRemainder(dividingBy: 360) - 180
        let turned = SkyCamera(
            rotation: rotation, declination: declination + turn, screenAngle: screenAngle, width: screen[0],
            height: screen[1], fov: fov, video: nil)
        let markers = try #require(after["markers"] as? [[String: Any]])
        #expect(!markers.isEmpty, "no markers after calibrating")
        var worst = 0.0
        for marker in markers {
            let icao = try #require(marker["icao"] as? String)
            let place = try #require(feed[icao].flatMap(turned.place), "\(icao) is marked but not in front")
            let error = hypot((marker["x"] as? Double ?? .nan) - place.x, (marker["y"] as? Double ?? .nan) - place.y)
            worst = max(worst, error)
            #expect(error <= 0.02 * screen[0], "after calibrating, \(icao) drawn \(error) px from \(place)")
        }
        print(
            "browser sky view calibration: \(calibration["hint"] ?? ""); the test works out "
                + "\(String(format: "%.1f", turn))°; \(markers.count) markers after, worst \(String(format: "%.1f", worst)) px"
        )
    }

    /// An arrow is for an aircraft outside the picture, sits at the edge, and points where the
    /// aircraft lies on the screen's plane (in front) or to the side to turn to (behind).
    static func checkArrow(
        _ arrow: [String: Any], view: String, feed: [String: [String: Any]], camera: SkyCamera,
        bottom: Double
    )
        throws
    {
        let icao = try #require(arrow["icao"] as? String)
        let plane = try #require(feed[icao], "\(view): the arrow's \(icao) is not in the frame")
        let x = try #require(arrow["x"] as? Double)
        let y = try #require(arrow["y"] as? Double)
        let angle = try #require(arrow["angleDeg"] as? Double)
        let onEdge =
            [abs(x - edgeMargin), abs(x - camera.width + edgeMargin)].min()! < 1.5
            || [abs(y - edgeMargin), abs(y - bottom + edgeMargin)].min()! < 1.5
        #expect(onEdge, "\(view): the arrow of \(icao) at \(x), \(y) is not at the edge")
        let way = camera.frame(plane)
        if let place = camera.place(plane) {
            #expect(
                place.x < 0 || place.x > camera.width || place.y < 0 || place.y > camera.height,
                "\(view): \(icao) has an arrow but is in the picture at \(place)")
            var expected = atan2(way.right, way.up) * 180 / .pi
            if expected < 0 { expected += 360 }
            let error = abs((angle - expected + 540).truncatingRemainder(dividingBy: 360) - 180)
            #expect(error <= 2, "\(view): the arrow of \(icao) points at \(angle)°, the aircraft lies at \(expected)°")
        } else {
            // Behind: towards the side the shorter turn goes.
            let azimuth = try #require(plane["azimuth_deg"] as? Double)
            let turn = (azimuth - camera.azimuth + 540).truncatingRemainder(dividingBy: 360) - 180
            let right = angle > 0 && angle < 180
            #expect(right == (turn >= 0), "\(view): \(icao) is \(turn)° round, the arrow points at \(angle)°")
        }
    }
}

/// A pinhole camera of the test's own, from the rotation the browser was given: the device's
/// rotation (W3C axes: x right, y up the screen in portrait, z out of it; the camera looks
/// along −z), from magnetic north as a compass gives it, turned by the declination to true
/// north; the screen turned by its angle; the field of view across the long side of the
/// camera's picture as it covers the screen (or of the screen without a camera).
struct SkyCamera {
    let width: Double
    let height: Double
    let focal: Double
    let right: [Double]
    let up: [Double]
    let ahead: [Double]

    init(
        rotation q: [Double], declination: Double, screenAngle: Double, width: Double, height: Double, fov: Double,
        video: [Double]?
    ) {
        let (x, y, z, w) = (q[0], q[1], q[2], q[3])
        // Columns of the rotation matrix: the device's axes in east, north, up (magnetic).
        let columns = [
            [1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w)],
            [2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w)],
            [2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)]
        ]
        // Magnetic to true: every azimuth grows by the declination (a clockwise turn).
        let d = declination * .pi / 180
        let toTrue = { (v: [Double]) in [v[0] * cos(d) + v[1] * sin(d), -v[0] * sin(d) + v[1] * cos(d), v[2]] }
        let (ex, ey, ez) = (toTrue(columns[0]), toTrue(columns[1]), toTrue(columns[2]))
        let (c, s) = (cos(screenAngle * .pi / 180), sin(screenAngle * .pi / 180))
        right = (0..<3).map { c * ex[$0] - s * ey[$0] }
        up = (0..<3).map { s * ex[$0] + c * ey[$0] }
        ahead = ez.map { -$0 }
        self.width = width
        self.height = height
        let half = tan(fov * .pi / 360)
        if let video, video.count == 2, video[0] > 0, video[1] > 0 {
            focal = max(width / video[0], height / video[1]) * max(video[0], video[1]) / 2 / half
        } else {
            focal = max(width, height) / 2 / half
        }
    }

    /// Where the camera looks, degrees from true north.
    var azimuth: Double { (atan2(ahead[0], ahead[1]) * 180 / .pi + 360).truncatingRemainder(dividingBy: 360) }

    /// A feed aircraft's direction in the camera's frame.
    func frame(_ plane: [String: Any]) -> (right: Double, up: Double, ahead: Double) {
        let azimuth = (plane["azimuth_deg"] as? Double ?? .nan) * .pi / 180
        let elevation = (plane["elevation_deg"] as? Double ?? .nan) * .pi / 180
        let v = [cos(elevation) * sin(azimuth), cos(elevation) * cos(azimuth), sin(elevation)]
        let dot = { (a: [Double]) in a[0] * v[0] + a[1] * v[1] + a[2] * v[2] }
        return (dot(right), dot(up), dot(ahead))
    }

    /// The direction seen at a screen point: its azimuth (degrees) and unit vector.
    func direction(x: Double, y: Double) -> (azimuth: Double, vector: [Double]) {
        let a = (x - width / 2) / focal
        let b = (height / 2 - y) / focal
        let v = (0..<3).map { ahead[$0] + a * right[$0] + b * up[$0] }
        let length = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).squareRoot()
        let unit = v.map { $0 / length }
        return ((atan2(unit[0], unit[1]) * 180 / .pi + 360).truncatingRemainder(dividingBy: 360), unit)
    }

    /// The angle (radians) between a direction and a feed aircraft's.
    func angle(_ seen: (azimuth: Double, vector: [Double]), _ plane: [String: Any]) -> Double {
        let azimuth = (plane["azimuth_deg"] as? Double ?? .nan) * .pi / 180
        let elevation = (plane["elevation_deg"] as? Double ?? .nan) * .pi / 180
        let v = [cos(elevation) * sin(azimuth), cos(elevation) * cos(azimuth), sin(elevation)]
        return acos(max(-1, min(1, v[0] * seen.vector[0] + v[1] * seen.vector[1] + v[2] * seen.vector[2])))
    }

    /// Where on the screen (CSS pixels from the top left) the aircraft is, or nil when behind.
    func place(_ plane: [String: Any]) -> (x: Double, y: Double)? {
        let v = frame(plane)
        guard v.ahead > 1e-6 else { return nil }
        return (width / 2 + focal * v.right / v.ahead, height / 2 - focal * v.up / v.ahead)
    }
}
