/// Which ecosystem outputs to run and where: TCP ports for Beast, SBS and AVR, and a
/// directory for aircraft.json. Everything is off unless set.
package struct OutputConfiguration: Sendable, Equatable {
    /// Conventional port of the Beast binary output.
    package static let conventionalBeastPort = 30005
    /// Conventional port of the SBS/BaseStation output.
    package static let conventionalSBSPort = 30003
    /// Conventional port of the AVR raw output.
    package static let conventionalAVRPort = 30002

    /// Address the TCP outputs listen on; loopback unless the user opens them up.
    package var host = "127.0.0.1"
    /// Beast output port, nil when off.
    package var beastPort: Int?
    /// SBS output port, nil when off.
    package var sbsPort: Int?
    /// AVR output port, nil when off.
    package var avrPort: Int?
    /// Directory for aircraft.json and receiver.json, nil when off.
    package var jsonDirectory: String?
    /// Whether aircraft.json is also served from memory (by the web server), so signal
    /// levels are kept even without a directory.
    package var servesJSON = false
    /// Most clients each TCP output serves at once; one more is closed at once.
    package var maxClients = TCPBroadcastServer.Configuration.defaultMaxClients

    /// Everything off.
    package init() {}

    /// Whether no output is configured.
    package var isEmpty: Bool {
        beastPort == nil && sbsPort == nil && avrPort == nil && jsonDirectory == nil && !servesJSON
    }

    /// A problem with the settings (a port out of range or used twice), or nil.
    package var problem: String? {
        let ports = [("--beast-out", beastPort), ("--sbs-out", sbsPort), ("--avr-out", avrPort)]
        for (option, port) in ports {
            if let port, !(1...65535).contains(port) { return "\(option) must be a port from 1 to 65535, not \(port)" }
        }
        let used = ports.compactMap(\.1)
        if Set(used).count != used.count { return "--beast-out, --sbs-out and --avr-out need different ports" }
        return nil
    }
}
