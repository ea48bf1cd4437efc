/// The topics of one receiver in the network, all under `aviator/NAME/`:
///
/// | topic | payload | QoS, retained |
/// | --- | --- | --- |
/// | `beast` | a `BeastBatch`: the frames of the last quarter second | 0, no |
/// | `aircraft/ICAO` | the aircraft's state as JSON; empty when it expired | 0, retained, expires after 60 s |
/// | `status` | `online`, or `offline` (the last will) | 1, retained |
/// | `receiver` | a `ReceiverAnnouncement` (position, version, sources) | 1, retained |
/// | `sensors` | the Home Assistant sensors' state as JSON | 0, retained |
package struct ReceiverTopics: Sendable, Equatable {
    /// The first level of every topic.
    package static let root = "aviator"
    /// The last level of a frame batch topic.
    package static let beastLevel = "beast"
    /// The last level of a receiver announcement topic.
    package static let receiverLevel = "receiver"
    /// The subscription filter an aggregator uses by default: every receiver's frames.
    package static let defaultBeastFilter = "\(root)/+/\(beastLevel)"

    /// The receiver's name (`ReceiverName`).
    package let name: String

    /// The topics of the receiver called `name`.
    package init(name: String) {
        self.name = name
    }

    /// `aviator/NAME`.
    package var prefix: String { "\(Self.root)/\(name)" }
    /// Frame batches.
    package var beast: String { "\(prefix)/\(Self.beastLevel)" }
    /// `online` or `offline`.
    package var status: String { "\(prefix)/status" }
    /// Where the receiver is and what it runs.
    package var receiver: String { "\(prefix)/\(Self.receiverLevel)" }
    /// The Home Assistant sensors' state.
    package var sensors: String { "\(prefix)/sensors" }
    /// One aircraft's state, by its address as the feed writes it (six lower-case hex
    /// digits, `~` first for a non-ICAO address).
    package func aircraft(_ icao: String) -> String { "\(prefix)/aircraft/\(icao)" }

    /// What a topic an aggregator received says: the receiver's name (the level before the
    /// last) and the last level; nil when it has fewer than two levels or the name is not a
    /// valid `ReceiverName`.
    package static func parse(_ topic: String) -> (name: String, kind: String)? {
        let levels = topic.split(separator: "/", omittingEmptySubsequences: false)
        guard levels.count >= 2 else { return nil }
        let name = String(levels[levels.count - 2])
        guard ReceiverName.isValid(name) else { return nil }
        return (name, String(levels[levels.count - 1]))
    }

    /// Why `filter` cannot select frame batches, or nil: it must end in `/beast`, with the
    /// receiver's name (or `+`) as the level before, and no `#`.
    package static func problem(beastFilter filter: String) -> String? {
        let levels = filter.split(separator: "/", omittingEmptySubsequences: false)
        guard levels.count >= 2, levels.last == Substring(beastLevel), !filter.contains("#") else {
            return "the topic filter must end in /\(beastLevel), e.g. \(defaultBeastFilter), without #"
        }
        let name = levels[levels.count - 2]
        guard name == "+" || ReceiverName.isValid(String(name)) else {
            return "the level before /\(beastLevel) must be + or a receiver name"
        }
        for level in levels.dropLast(2) where level.isEmpty || (level.contains("+") && level != "+") {
            return "'\(filter)' is not a valid MQTT topic filter"
        }
        return nil
    }

    /// The filter for the receiver announcements that go with a frame filter: the same with
    /// `receiver` as the last level.
    package static func receiverFilter(forBeastFilter filter: String) -> String {
        String(filter.dropLast(beastLevel.count)) + receiverLevel
    }
}
