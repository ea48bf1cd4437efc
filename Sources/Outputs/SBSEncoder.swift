import ModeS
import Tracking

/// Writes decoded messages as SBS/BaseStation lines, the text format of TCP port 30003 that
/// Virtual Radar Server, PlanePlotter and many logging scripts read.
///
/// A line is `MSG`, the transmission type (1–8), session, aircraft and flight ids (always 1:
/// there is one receiver and no database), the address in upper-case hex, the date and time
/// the message was generated and logged, then callsign, altitude, ground speed, track,
/// latitude, longitude, vertical rate, squawk and the alert, emergency, SPI and on-ground
/// flags — 22 comma-separated fields in all, ended by `\r\n`. A field the message does not
/// carry is left empty; flags are `-1` for true and `0` for false.
///
/// | type | what | from |
/// | --- | --- | --- |
/// | 1 | identification and category | DF17/18 TC 1–4 |
/// | 2 | surface position | DF17/18 TC 5–8 |
/// | 3 | airborne position | DF17/18 TC 9–18, 20–22 |
/// | 4 | airborne velocity | DF17/18 TC 19 |
/// | 5 | surveillance altitude | DF4, DF20 |
/// | 6 | surveillance identity (squawk) | DF5, DF21 |
/// | 7 | air-to-air | DF0, DF16 |
/// | 8 | all-call reply | DF11 |
///
/// Other messages (status, target state, operational status...) have no SBS line.
package struct SBSEncoder: Sendable {
    /// Number of comma-separated fields in a line.
    package static let fieldCount = 22
    /// Squawks that declare an emergency: hijack, radio failure, general emergency.
    package static let emergencySquawks: Set<String> = ["7500", "7600", "7700"]

    /// Seconds to add to UTC for the date and time fields (receivers conventionally log local
    /// time; 0 writes UTC).
    package var utcOffsetSeconds: Int

    /// An encoder writing times `utcOffsetSeconds` ahead of UTC.
    package init(utcOffsetSeconds: Int = 0) {
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    /// The transmission type for a message, or nil when SBS has no line for it.
    package static func transmissionType(for message: Message) -> Int? {
        switch message.df {
        case 17, 18:
            guard let typeCode = message.typeCode else { return nil }
            switch typeCode {
            case 1...4: return 1
            case 5...8: return 2
            case 9...18, 20...22: return 3
            case 19: return 4
            default: return nil
            }
        case 4, 20: return 5
        case 5, 21: return 6
        case 0, 16: return 7
        case 11: return 8
        default: return nil
        }
    }

    /// The line (with `\r\n`) for `message` as the tracker resolved it (its position set when
    /// this very message fixed one), received at `time` (seconds since 1970), with the
    /// aircraft's state after the merge (for its emergency flag); nil when the message has no
    /// SBS line or failed its parity.
    package func line(for message: Message, aircraft: AircraftState?, receivedAt time: Double) -> String? {
        guard message.crcOK != false, let type = Self.transmissionType(for: message) else { return nil }
        var fields = [String](repeating: "", count: Self.fieldCount)
        fields[0] = "MSG"
        fields[1] = String(type)
        fields[2] = "1"
        fields[3] = "1"
        fields[4] = message.icaoHex.uppercased()
        fields[5] = "1"
        let (date, clock) = Self.dateAndTime(time + Double(utcOffsetSeconds))
        fields[6] = date
        fields[7] = clock
        fields[8] = date
        fields[9] = clock
        Self.fill(&fields, type: type, from: message, aircraft: aircraft)
        return fields.joined(separator: ",") + "\r\n"
    }

    /// Sets the fields after the header (callsign to on-ground flag) that a line of
    /// transmission `type` carries, from `message` and, for the emergency flag, `aircraft`.
    private static func fill(_ fields: inout [String], type: Int, from message: Message, aircraft: AircraftState?) {
        // The position this very message produced, if it resolved one.
        var position: GeoPoint?
        if message.cpr != nil, let latitude = message.latitude, let longitude = message.longitude {
            position = GeoPoint(latitude: latitude, longitude: longitude)
        }

        switch type {
        case 1:
            fields[10] = message.callsign ?? ""
        case 2:
            fields[11] = Self.integer(message.altitudeBaroFt)
            fields[12] = Self.integer(message.groundSpeedKt)
            fields[13] = Self.angle(message.trackDeg)
            fields[14] = Self.coordinate(position?.latitude)
            fields[15] = Self.coordinate(position?.longitude)
            fields[21] = Self.flag(true)
        case 3:
            fields[11] = Self.integer(message.altitudeBaroFt ?? message.altitudeGeoFt)
            fields[14] = Self.coordinate(position?.latitude)
            fields[15] = Self.coordinate(position?.longitude)
            fields[18] = Self.flag(message.alert ?? false)
            fields[19] = Self.flag(Self.isEmergency(aircraft))
            fields[20] = Self.flag(message.spi ?? false)
            fields[21] = Self.flag(message.onGround ?? false)
        case 4:
            fields[12] = Self.integer(message.groundSpeedKt)
            fields[13] = Self.angle(message.trackDeg)
            fields[16] = Self.integer(message.verticalRateFpm)
        case 5:
            fields[11] = Self.integer(message.altitudeBaroFt)
            fields[18] = Self.flag(message.alert)
            fields[20] = Self.flag(message.spi)
            fields[21] = Self.flag(message.onGround)
        case 6:
            fields[17] = message.squawk ?? ""
            fields[18] = Self.flag(message.alert)
            fields[19] = Self.flag(message.squawk.map { Self.emergencySquawks.contains($0) })
            fields[20] = Self.flag(message.spi)
            fields[21] = Self.flag(message.onGround)
        case 7:
            fields[11] = Self.integer(message.altitudeBaroFt)
            fields[21] = Self.flag(message.onGround)
        default:  // 8
            fields[21] = Self.flag(message.onGround)
        }
    }

    /// Whether the aircraft declares an emergency, by ADS-B emergency state or by squawk.
    static func isEmergency(_ aircraft: AircraftState?) -> Bool {
        guard let aircraft else { return false }
        if let state = aircraft.emergency, state != 0 { return true }
        if let squawk = aircraft.squawk, emergencySquawks.contains(squawk) { return true }
        return false
    }

    /// `-1` for true, `0` for false, empty when unknown (the BaseStation convention).
    static func flag(_ value: Bool?) -> String {
        guard let value else { return "" }
        return value ? "-1" : "0"
    }

    static func integer(_ value: Int?) -> String {
        value.map { String($0) } ?? ""
    }

    static func integer(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "" }
        return String(Int(value.rounded()))
    }

    /// An angle rounded to a whole degree in [0, 360).
    static func angle(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "" }
        let degrees = Int(value.rounded()) % 360
        return String(degrees < 0 ? degrees + 360 : degrees)
    }

    /// Degrees with five decimals (about a metre).
    static func coordinate(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "" }
        let scaled = Int((abs(value) * 100_000).rounded())
        let whole = scaled / 100_000
        let fraction = String(scaled % 100_000)
        let sign = value < 0 && scaled != 0 ? "-" : ""
        return sign + String(whole) + "." + String(repeating: "0", count: 5 - fraction.count) + fraction
    }

    /// `yyyy/MM/dd` and `HH:mm:ss.SSS` for `seconds` since 1970 (already shifted to the wanted
    /// time zone), computed directly: a formatter per message would cost more than the line.
    static func dateAndTime(_ seconds: Double) -> (date: String, time: String) {
        let milliseconds = Int64((seconds * 1000).rounded(.down))
        var days = milliseconds / 86_400_000
        var ofDay = milliseconds % 86_400_000
        if ofDay < 0 {
            ofDay += 86_400_000
            days -= 1
        }
        let (year, month, day) = civilDate(daysSince1970: days)
        let date = pad(year, 4) + "/" + pad(month, 2) + "/" + pad(day, 2)
        let hour = ofDay / 3_600_000
        let minute = ofDay / 60_000 % 60
        let second = ofDay / 1000 % 60
        let time = pad(hour, 2) + ":" + pad(minute, 2) + ":" + pad(second, 2) + "." + pad(ofDay % 1000, 3)
        return (date, time)
    }

    /// The proleptic Gregorian date of a day number (0 = 1970-01-01).
    ///
    /// Counts from 1 March 2000-style eras: shifting the year to start in March puts the leap
    /// day last, so a year's day number maps to a month with one linear formula. An era is
    /// 400 years = 146,097 days.
    static func civilDate(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468  // days from 0000-03-01 to 1970-01-01
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let marchMonth = (5 * dayOfYear + 2) / 153  // 0 = March ... 11 = February
        let day = dayOfYear - (153 * marchMonth + 2) / 5 + 1
        let month = marchMonth < 10 ? marchMonth + 3 : marchMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
