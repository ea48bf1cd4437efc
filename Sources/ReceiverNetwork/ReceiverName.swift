/// The name a receiver goes by in the network: one level of its MQTT topics
/// (`aviator/NAME/...`), its source label on an aggregator (`mqtt NAME`) and its Home
/// Assistant device.
///
/// 1 to 64 characters among letters, digits, `.`, `_` and `-`: nothing that MQTT treats
/// specially (`/`, `+`, `#`), nothing a log line or a label would need to quote.
package enum ReceiverName {
    /// The longest name.
    package static let maximumLength = 64

    /// Why `name` cannot be a receiver's name, or nil when it can.
    package static func problem(_ name: String) -> String? {
        if name.isEmpty { return "a receiver name cannot be empty" }
        if name.utf8.count > maximumLength { return "a receiver name has at most \(maximumLength) characters" }
        if !name.utf8.allSatisfy(isAllowed) {
            return
                "a receiver name has only letters, digits, '.', '_' and '-' (got '\(name.filter { $0.isASCII && !$0.isNewline })')"
        }
        return nil
    }

    /// Whether `name` can be a receiver's name.
    package static func isValid(_ name: String) -> Bool { problem(name) == nil }

    /// A valid name made from a host name: the first label (before any dot), other
    /// characters replaced by '-', cut to the longest length; "receiver" when nothing is left.
    package static func fromHostName(_ host: String) -> String {
        let label = host.split(separator: ".").first.map(String.init) ?? ""
        let cleaned = String(
            String.UnicodeScalarView(
                label.unicodeScalars.prefix(maximumLength).map { scalar in
                    scalar.isASCII && isAllowed(UInt8(scalar.value)) ? scalar : "-"
                }))
        return cleaned.isEmpty ? "receiver" : cleaned
    }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }
}

extension ReceiverName {
    /// What a network receiver's frames are labelled on an aggregator: "mqtt NAME".
    package static func sourceLabel(_ name: String) -> String { sourceLabelPrefix + name }

    /// The start of every network receiver's source label.
    package static let sourceLabelPrefix = "mqtt "

    /// Whether frames labelled `label` came from the network (and must not be published to
    /// it again, which would send them round in a loop).
    package static func isNetworkSource(_ label: String) -> Bool { label.hasPrefix(sourceLabelPrefix) }
}
