import FoundationEssentials
import Identity
import ModeS
import Support
import Tracking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes `aircraft.json` and `receiver.json` in the layout dump1090-fa and readsb use, so
/// tar1090, SkyAware-style pages and the scripts written for them read our aircraft as they
/// read theirs.
///
/// `aircraft.json` is `{"now", "messages", "aircraft": [...]}`; each aircraft has `hex`, and
/// when known `flight` (callsign padded to 8 characters), the aircraft database's `r`, `t`,
/// `desc`, `ownOp`, `year` and `dbFlags` (with `--db-file`), `alt_baro` (feet, or `"ground"`),
/// `alt_geom`, `gs` (knots), `track` (degrees), `baro_rate` (ft/min), `squawk`, `emergency`,
/// `category`, `lat`, `lon`, `seen_pos`, `rssi` (dBFS), and always `seen` and `messages`.
/// `receiver.json` tells a page the format version, how often to reload (`refresh`, ms),
/// how many history files exist (`history`, none here) and where the receiver is.
///
/// Files are replaced atomically: written to a temporary file in the same directory, then
/// renamed over the old one, so a web server never serves half a file.
package struct AircraftJSONWriter: Sendable {
    /// Names of ADS-B emergency states 0–7, as the JSON format spells them.
    package static let emergencyNames = [
        "none", "general", "lifeguard", "minfuel", "nordo", "unlawful", "downed", "reserved"
    ]

    /// The directory the files go to.
    package let directory: String

    /// A writer into `directory` (which must exist).
    package init(directory: String) {
        self.directory = directory
    }

    /// The text of `aircraft.json` at `now` (seconds since 1970) after `messages` messages,
    /// with each aircraft's recent signal level (`AircraftState.signal`) as its `rssi`.
    package static func aircraftJSON(
        now: Double, messages: Int, aircraft: [AircraftState], receiver: GeoPoint? = nil
    ) -> String {
        var list: [String] = []
        list.reserveCapacity(aircraft.count)
        for plane in aircraft { list.append(object(for: plane, now: now, receiver: receiver)) }
        var root = JSONObjectWriter()
        root.add("now", now, decimals: 1)
        root.add("messages", messages)
        root.addRaw("aircraft", "[\n" + list.joined(separator: ",\n") + "\n]")
        return root.result + "\n"
    }

    /// The JSON object of one aircraft: readsb's keys, units and order, each left out when
    /// unknown. With the `receiver`'s position, a fresh position also gets its distance
    /// (`r_dst`, nautical miles) and bearing (`r_dir`, degrees) from the receiver.
    static func object(for plane: AircraftState, now: Double, receiver: GeoPoint? = nil) -> String {
        var w = JSONObjectWriter()
        addIdentity(of: plane, to: &w)
        addMotion(of: plane, now: now, to: &w)
        addIntent(of: plane, to: &w)
        addPosition(of: plane, now: now, receiver: receiver, to: &w)
        addQuality(of: plane, to: &w)
        w.add("messages", plane.messageCount)
        w.add("seen", max(0, plane.age(at: now)), decimals: 1)
        w.add("rssi", plane.signal.meanDBFS, decimals: 1)
        return w.result
    }

    /// The `type` readsb writes: an aircraft heard in ADS-B from its transponder (DF17) is
    /// `adsb_icao` once it holds a position and `mode_s` until then, as readsb ranks it (on the
    /// busy sample, readsb's own aircraft.json gave every aircraft without a position
    /// `mode_s`, and every one with a position `adsb_icao`).
    static func jsonType(of plane: AircraftState) -> String {
        plane.addressType == .adsbICAO && plane.position == nil
            ? AddressType.modeS.jsonName : plane.addressType.jsonName
    }

    /// `hex`, `type` and `flight`, then the aircraft database's row as readsb writes it with
    /// `--db-file`: `r` (registration), `t` (type designator), `desc`, `ownOp`, `year` (a
    /// string, as the database has it) and `dbFlags` (military 1, interesting 2, PIA 4, LADD 8;
    /// left out when 0): who the aircraft is.
    private static func addIdentity(of plane: AircraftState, to w: inout JSONObjectWriter) {
        w.add("hex", (plane.addressType.isICAO ? "" : "~") + plane.icaoHex)
        w.add("type", jsonType(of: plane))
        if let callsign = plane.callsign, !callsign.isEmpty { w.add("flight", paddedCallsign(callsign)) }
        guard plane.addressType.isICAO, let record = plane.identity?.record else { return }
        w.add("r", record.registration)
        w.add("t", record.typeCode)
        w.add("desc", record.description)
        w.add("ownOp", record.owner)
        w.add("year", record.year)
        if record.flags.rawValue != 0 { w.add("dbFlags", Int(record.flags.rawValue)) }
    }

    /// Altitudes, speeds, the weather derived from them (`wd`, `ws`, `oat`, `tat`), track,
    /// heading and vertical rates: how the aircraft moves.
    private static func addMotion(of plane: AircraftState, now: Double, to w: inout JSONObjectWriter) {
        if plane.onGround == true {
            w.add("alt_baro", "ground")
        } else {
            w.add("alt_baro", plane.altitudeBaroFt)
        }
        w.add("alt_geom", plane.altitudeGeoFt)
        w.add("gs", plane.groundSpeedKt, decimals: 1)
        w.add("ias", plane.indicatedAirspeedKt)
        w.add("tas", plane.trueAirspeedKt)
        w.add("mach", plane.mach, decimals: 3)
        if let weather = AirData(plane, now: now) {
            w.addAngle("wd", weather.windDirectionDeg, decimals: 0)
            w.add("ws", weather.windSpeedKt, decimals: 0)
            w.add("oat", weather.staticTemperatureC, decimals: 0)
            w.add("tat", weather.totalTemperatureC, decimals: 0)
        }
        w.addAngle("track", plane.trackDeg, decimals: 2)
        w.add("track_rate", plane.trackRateDegPerS, decimals: 2)
        w.add("roll", plane.rollDeg, decimals: 2)
        w.addAngle("mag_heading", plane.magneticHeadingDeg, decimals: 2)
        w.addAngle("true_heading", plane.trueHeadingDeg, decimals: 2)
        w.add("baro_rate", plane.baroRateFpm)
        w.add("geom_rate", plane.geomRateFpm)
    }

    /// Squawk, emergency, category and the autopilot's selections (`nav_*`): what the crew
    /// says and intends.
    private static func addIntent(of plane: AircraftState, to w: inout JSONObjectWriter) {
        w.add("squawk", plane.squawk)
        if let state = plane.emergency, emergencyNames.indices.contains(state) {
            w.add("emergency", emergencyNames[state])
        }
        w.add("category", plane.category)
        w.add("nav_qnh", plane.navQNHHpa, decimals: 1)
        w.add("nav_altitude_mcp", plane.navAltitudeMCPFt)
        w.add("nav_altitude_fms", plane.navAltitudeFMSFt)
        w.addAngle("nav_heading", plane.navHeadingDeg, decimals: 2)
        if let modes = plane.navModes { w.addRaw("nav_modes", stringArray(modes.names)) }
    }

    /// A position that is not stale (`lat`, `lon`, `seen_pos`, and `r_dst` and `r_dir` from
    /// the `receiver`), with its integrity (`nic`, `rc`) between them, as readsb orders them.
    private static func addPosition(
        of plane: AircraftState, now: Double, receiver: GeoPoint?, to w: inout JSONObjectWriter
    ) {
        let position = plane.positionIsStale(at: now) ? nil : plane.position
        if let position {
            w.add("lat", position.latitude, decimals: 6)
            w.add("lon", position.longitude, decimals: 6)
        }
        w.add("nic", plane.nic)
        w.add("rc", plane.radiusOfContainmentM)
        if let position {
            w.add("seen_pos", max(0, now - (plane.positionTime ?? now)), decimals: 1)
            if let receiver {
                w.add("r_dst", CPR.distanceKm(receiver, position) / 1.852, decimals: 3)
                w.addAngle("r_dir", bearingDeg(from: receiver, to: position), decimals: 1)
            }
        }
    }

    /// The ADS-B version and quality indicators, the alert and SPI flags, and which fields
    /// came from multilateration (`mlat`) or TIS-B (`tisb`): how far to trust the rest.
    private static func addQuality(of plane: AircraftState, to w: inout JSONObjectWriter) {
        w.add("version", plane.adsbVersion)
        w.add("nic_baro", plane.nicBaro)
        w.add("nac_p", plane.nacP)
        w.add("nac_v", plane.nacV)
        w.add("sil", plane.sil)
        if plane.sil != nil { w.add("sil_type", plane.silPerSample.map { $0 ? "persample" : "perhour" } ?? "unknown") }
        w.add("gva", plane.gva)
        w.add("sda", plane.sda)
        w.add("alert", plane.alert.map { $0 ? 1 : 0 })
        w.add("spi", plane.spi.map { $0 ? 1 : 0 })
        w.addRaw("mlat", stringArray(plane.fieldSources.jsonNames { $0 == .mlat }))
        w.addRaw("tisb", stringArray(plane.fieldSources.jsonNames { $0.isTISB }))
    }

    /// The initial great-circle bearing from `a` to `b`, degrees clockwise from true north.
    static func bearingDeg(from a: GeoPoint, to b: GeoPoint) -> Double {
        let radians = Double.pi / 180
        let dLon = (b.longitude - a.longitude) * radians
        let y = sin(dLon) * cos(b.latitude * radians)
        let x =
            cos(a.latitude * radians) * sin(b.latitude * radians)
            - sin(a.latitude * radians) * cos(b.latitude * radians) * cos(dLon)
        let degrees = atan2(y, x) / radians
        return degrees < 0 ? degrees + 360 : degrees
    }

    /// A JSON array of plain names (none needs escaping).
    static func stringArray(_ names: [String]) -> String {
        "[" + names.map { "\"\($0)\"" }.joined(separator: ",") + "]"
    }

    /// A callsign padded with spaces to the 8 characters of the identification message.
    static func paddedCallsign(_ callsign: String) -> String {
        callsign.count >= 8 ? callsign : callsign + String(repeating: " ", count: 8 - callsign.count)
    }

    /// The text of `receiver.json`: `version`, `refresh` (ms between reloads), `history`
    /// (number of history files: none) and, when known, the receiver's `lat` and `lon`.
    package static func receiverJSON(version: String, refreshMilliseconds: Int, receiver: GeoPoint?) -> String {
        var w = JSONObjectWriter()
        w.add("version", version)
        w.add("refresh", refreshMilliseconds)
        w.add("history", 0)
        if let receiver {
            w.add("lat", receiver.latitude, decimals: 6)
            w.add("lon", receiver.longitude, decimals: 6)
        }
        return w.result + "\n"
    }

    /// Writes `aircraft.json`.
    package func writeAircraft(
        now: Double, messages: Int, aircraft: [AircraftState], receiver: GeoPoint? = nil
    ) throws {
        try write(
            "aircraft.json",
            Self.aircraftJSON(
                now: now, messages: messages, aircraft: aircraft, receiver: receiver))
    }

    /// Writes `stats.json` with `text` (see `StatsJSON`).
    package func writeStats(_ text: String) throws {
        try Self.replace(path: directory + "/stats.json", with: text)
    }

    /// Writes `receiver.json`.
    package func writeReceiver(version: String, refreshMilliseconds: Int, receiver: GeoPoint?) throws {
        try write(
            "receiver.json",
            Self.receiverJSON(
                version: version, refreshMilliseconds: refreshMilliseconds,
                receiver: receiver))
    }

    /// Replaces the file `name` of the directory with `text`.
    package func write(_ name: String, _ text: String) throws {
        try Self.replace(path: directory + "/" + name, with: text)
    }

    /// Checks that `path` is a directory this process can create files in; throws an
    /// `OutputError.unusableDirectory` saying why not.
    package static func checkDirectory(_ path: String) throws {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw OutputError.unusableDirectory(path: path, reason: "no such directory")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw OutputError.unusableDirectory(path: path, reason: "not a directory")
        }
        guard access(path, W_OK | X_OK) == 0 else {
            throw OutputError.unusableDirectory(path: path, reason: String(cString: strerror(errno)))
        }
    }

    /// Replaces the file at `path` with `text` in one step, never following a link planted
    /// in the directory (see `FileReplacement`).
    static func replace(path: String, with text: String) throws {
        try FileReplacement.replace(path: path, with: text)
    }
}
