import ModeS

/// What kind of address an aircraft's messages carry and how directly they were heard: the
/// `type` of aircraft.json, in the order readers rank them (most direct first).
///
/// A DF17 squitter is the aircraft's own ADS-B under its ICAO address; DF18 carries ADS-B
/// from devices that are not transponders, rebroadcasts (ADS-R) and ground radar tracks
/// (TIS-B), some of them under addresses that are not ICAO addresses at all. An address that
/// is not an ICAO address names a different aircraft than the same 24 bits from a
/// transponder, so such aircraft are tracked apart and written with a leading `~`.
package enum AddressType: Int, Sendable, Equatable, Comparable, CaseIterable {
    /// ADS-B from a Mode S transponder (DF17), ICAO address.
    case adsbICAO
    /// ADS-B from a device that is not a transponder (DF18 CF 0), ICAO address.
    case adsbICAONonTransponder
    /// ADS-B rebroadcast from another data link (DF18 CF 6), ICAO address.
    case adsrICAO
    /// A ground station's track of a non-ADS-B aircraft (DF18 CF 2/3), ICAO address.
    case tisbICAO
    /// Positions a multilateration server worked out (Beast input).
    case mlat
    /// Another source's state vectors (OpenSky).
    case other
    /// Mode S replies only (DF0/4/5/11/16/20/21): no ADS-B heard.
    case modeS
    /// ADS-B from a device with a non-ICAO (e.g. anonymous) address (DF18 CF 1).
    case adsbOther
    /// ADS-B rebroadcast under a non-ICAO address (DF18 CF 6 with the IMF bit set).
    case adsrOther
    /// TIS-B relaying ADS-B under an anonymous address (DF18 CF 5).
    case tisbOther
    /// TIS-B under a ground station's track file number instead of an address (DF18 CF 2/3
    /// with the IMF bit set), typically a primary or Mode A/C radar track.
    case tisbTrackfile
    /// A DF18 that names no aircraft kind readers know (TIS-B/ADS-R management, reserved
    /// control fields).
    case unknown

    /// The name aircraft.json readers know.
    package var jsonName: String {
        switch self {
        case .adsbICAO: "adsb_icao"
        case .adsbICAONonTransponder: "adsb_icao_nt"
        case .adsrICAO: "adsr_icao"
        case .tisbICAO: "tisb_icao"
        case .mlat: "mlat"
        case .other: "other"
        case .modeS: "mode_s"
        case .adsbOther: "adsb_other"
        case .adsrOther: "adsr_other"
        case .tisbOther: "tisb_other"
        case .tisbTrackfile: "tisb_trackfile"
        case .unknown: "unknown"
        }
    }

    /// Whether the address is an ICAO 24-bit address (written plain) rather than another
    /// kind (written with a leading `~`).
    package var isICAO: Bool { self < .adsbOther }

    /// Whether the information is a ground station's relay (TIS-B) rather than the
    /// aircraft's own report: aircraft.json lists such fields under `tisb`.
    package var isTISB: Bool { self == .tisbICAO || self == .tisbOther || self == .tisbTrackfile }

    /// A more direct type orders first.
    package static func < (a: AddressType, b: AddressType) -> Bool { a.rawValue < b.rawValue }

    /// The type of a decoded message: the downlink format, and for DF18 the control field
    /// and the IMF bit (`Message.nonICAOAddress`).
    package init(of message: Message, multilaterated: Bool) {
        if multilaterated {
            self = .mlat
            return
        }
        switch message.df {
        case 17:
            self = .adsbICAO
        case 18:
            let otherAddress = message.nonICAOAddress == true
            switch message.capability {
            case 0: self = .adsbICAONonTransponder
            case 1: self = .adsbOther
            case 2, 3: self = otherAddress ? .tisbTrackfile : .tisbICAO
            case 5: self = .tisbOther
            case 6: self = otherAddress ? .adsrOther : .adsrICAO
            default: self = .unknown
            }
        default:
            self = .modeS
        }
    }
}
