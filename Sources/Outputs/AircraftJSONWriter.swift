import Foundation
import Tracking
import ModeS

/// Writes `aircraft.json` and `receiver.json` in the layout dump1090-fa and readsb use, so
/// tar1090, SkyAware-style pages and the scripts written for them read our aircraft as they
/// read theirs.
///
/// `aircraft.json` is `{"now", "messages", "aircraft": [...]}`; each aircraft has `hex`, and
/// when known `flight` (callsign padded to 8 characters), `alt_baro` (feet, or `"ground"`),
/// `alt_geom`, `gs` (knots), `track` (degrees), `baro_rate` (ft/min), `squawk`, `emergency`,
/// `category`, `lat`, `lon`, `seen_pos`, `rssi` (dBFS), and always `seen` and `messages`.
/// `receiver.json` tells a page the format version, how often to reload (`refresh`, ms),
/// how many history files exist (`history`, none here) and where the receiver is.
///
/// Files are replaced atomically: written to a temporary file in the same directory, then
/// renamed over the old one, so a web server never serves half a file.
public struct AircraftJSONWriter: Sendable {
    /// Names of ADS-B emergency states 0–7, as the JSON format spells them.
    public static let emergencyNames = ["none", "general", "lifeguard", "minfuel", "nordo", "unlawful", "downed", "reserved"]

    /// The directory the files go to.
    public let directory: String

    /// A writer into `directory` (which must exist).
    public init(directory: String) {
        self.directory = directory
    }

    /// The text of `aircraft.json` at `now` (seconds since 1970) after `messages` messages,
    /// with each aircraft's recent signal level from `rssi` (dBFS, by address).
    public static func aircraftJSON(now: Double, messages: Int, aircraft: [AircraftState],
                                    rssi: [UInt32: Double]) -> String {
        var list: [String] = []
        list.reserveCapacity(aircraft.count)
        for plane in aircraft { list.append(object(for: plane, now: now, rssi: rssi[plane.icao])) }
        var root = JSONObjectWriter()
        root.add("now", now, decimals: 1)
        root.add("messages", messages)
        root.addRaw("aircraft", "[\n" + list.joined(separator: ",\n") + "\n]")
        return root.result + "\n"
    }

    /// The JSON object of one aircraft.
    static func object(for plane: AircraftState, now: Double, rssi: Double?) -> String {
        var w = JSONObjectWriter()
        w.add("hex", plane.icaoHex)
        w.add("type", typeName(of: plane.source))
        if let callsign = plane.callsign, !callsign.isEmpty { w.add("flight", paddedCallsign(callsign)) }
        if plane.onGround == true {
            w.add("alt_baro", "ground")
        } else {
            w.add("alt_baro", plane.altitudeBaroFt)
        }
        w.add("alt_geom", plane.altitudeGeoFt)
        w.add("gs", plane.groundSpeedKt, decimals: 1)
        w.add("track", plane.trackDeg, decimals: 1)
        w.add("baro_rate", plane.verticalRateFpm)
        w.add("squawk", plane.squawk)
        if let state = plane.emergency, emergencyNames.indices.contains(state) {
            w.add("emergency", emergencyNames[state])
        }
        w.add("category", plane.category)
        if let position = plane.position, !plane.positionIsStale(at: now) {
            w.add("lat", position.latitude, decimals: 6)
            w.add("lon", position.longitude, decimals: 6)
            w.add("seen_pos", max(0, now - (plane.positionTime ?? now)), decimals: 1)
        }
        // Which fields came from multilateration or TIS-B (none of the latter is decoded, but
        // readers expect both lists).
        w.addRaw("mlat", "[" + plane.mlatFields.jsonNames.map { "\"\($0)\"" }.joined(separator: ",") + "]")
        w.addRaw("tisb", "[]")
        w.add("messages", plane.messageCount)
        w.add("seen", max(0, plane.age(at: now)), decimals: 1)
        w.add("rssi", rssi, decimals: 1)
        return w.result
    }

    /// The `type` aircraft.json readers know for each source.
    static func typeName(of source: DataSource) -> String {
        switch source {
        case .adsb: "adsb_icao"
        case .mlat: "mlat"
        case .modeS: "mode_s"
        case .opensky: "other"
        }
    }

    /// A callsign padded with spaces to the 8 characters of the identification message.
    static func paddedCallsign(_ callsign: String) -> String {
        callsign.count >= 8 ? callsign : callsign + String(repeating: " ", count: 8 - callsign.count)
    }

    /// The text of `receiver.json`: `version`, `refresh` (ms between reloads), `history`
    /// (number of history files: none) and, when known, the receiver's `lat` and `lon`.
    public static func receiverJSON(version: String, refreshMilliseconds: Int, receiver: GeoPoint?) -> String {
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
    public func writeAircraft(now: Double, messages: Int, aircraft: [AircraftState], rssi: [UInt32: Double]) throws {
        try write("aircraft.json", Self.aircraftJSON(now: now, messages: messages, aircraft: aircraft, rssi: rssi))
    }

    /// Writes `receiver.json`.
    public func writeReceiver(version: String, refreshMilliseconds: Int, receiver: GeoPoint?) throws {
        try write("receiver.json", Self.receiverJSON(version: version, refreshMilliseconds: refreshMilliseconds,
                                                     receiver: receiver))
    }

    /// Replaces the file `name` of the directory with `text`.
    public func write(_ name: String, _ text: String) throws {
        try Self.replace(path: directory + "/" + name, with: text)
    }

    /// Checks that `path` is a directory this process can create files in; throws an
    /// `OutputError.unusableDirectory` saying why not.
    public static func checkDirectory(_ path: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw OutputError.unusableDirectory(path: path, reason: "no such directory")
        }
        guard isDirectory.boolValue else { throw OutputError.unusableDirectory(path: path, reason: "not a directory") }
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
