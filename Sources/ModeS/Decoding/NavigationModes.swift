/// The automation modes an aircraft reports as engaged: target state squitters (TC 29) and
/// Comm-B register 4,0 (which carries only VNAV, altitude hold and approach).
public struct NavigationModes: OptionSet, Sendable, Hashable {
    /// The bits.
    public let rawValue: UInt8
    /// Modes from their bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Autopilot engaged.
    public static let autopilot = NavigationModes(rawValue: 1 << 0)
    /// Vertical navigation.
    public static let vnav = NavigationModes(rawValue: 1 << 1)
    /// Altitude hold.
    public static let altitudeHold = NavigationModes(rawValue: 1 << 2)
    /// Approach mode.
    public static let approach = NavigationModes(rawValue: 1 << 3)
    /// Lateral navigation.
    public static let lnav = NavigationModes(rawValue: 1 << 4)
    /// TCAS (ACAS) operational.
    public static let tcas = NavigationModes(rawValue: 1 << 5)

    /// The names aircraft.json uses (`nav_modes`), in a fixed order.
    public var names: [String] {
        let all: [(NavigationModes, String)] = [
            (.autopilot, "autopilot"), (.vnav, "vnav"), (.altitudeHold, "althold"),
            (.approach, "approach"), (.lnav, "lnav"), (.tcas, "tcas")
        ]
        return all.filter { contains($0.0) }.map(\.1)
    }
}
