/// What an MQTT input counted for one receiver of the network.
package struct RemoteReceiverCounters: Sendable, Equatable {
    /// Frame batches read whole.
    package var batches = 0
    /// Frames that passed the validator.
    package var frames = 0
    /// Frames the validator rejected (a parity that does not check, an address/parity frame
    /// from an address no one heard).
    package var rejected = 0
    /// Payloads dropped because something in them was out of place.
    package var malformed = 0
    /// Payloads dropped because they were larger than the receiver ever sends.
    package var oversized = 0
    /// Batches that never arrived, from the gaps in the sequence numbers.
    package var missedBatches = 0
    /// Frames those batches held.
    package var missedFrames = 0
    /// Times the receiver started again (its sequence went back).
    package var restarts = 0
    /// Aircraft its own frames placed farther from its announced position than any receiver
    /// hears (`AnnouncementCheck`): an announcement that is wrong.
    package var contradictions = 0
    /// Whether its last status said it is online (nil: no status heard).
    package var online: Bool?

    /// Nothing counted.
    package init() {}

    /// Adds the counts of `other` (a receiver forgotten, or one of many summed); the status
    /// stays this one's.
    package mutating func add(_ other: RemoteReceiverCounters) {
        for path in [
            \Self.batches, \.frames, \.rejected, \.malformed, \.oversized, \.missedBatches, \.missedFrames,
            \.restarts, \.contradictions
        ] as [WritableKeyPath<Self, Int>] {
            let (sum, overflow) = self[keyPath: path].addingReportingOverflow(other[keyPath: path])
            self[keyPath: path] = overflow ? .max : sum
        }
    }

    /// "mqtt alpha: 1200 frames in 40 batches, 0 failed the parity check, 0 malformed,
    /// 0 oversized, 2 batches (61 frames) missed", with "offline" and restarts when so.
    package func summary(label: String) -> String {
        "\(label): \(frames) frames in \(batches) batches, \(rejected) failed the parity check, \(malformed) malformed, "
            + "\(oversized) oversized, \(missedBatches) batches (\(missedFrames) frames) missed"
            + (restarts > 0 ? ", \(restarts) restarts" : "")
            + (contradictions > 0 ? ", \(contradictions) aircraft far from its announced position" : "")
            + (online == false ? ", offline" : "")
    }
}
