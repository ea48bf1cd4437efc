/// What an MQTT input counted for one receiver of the network.
public struct RemoteReceiverCounters: Sendable, Equatable {
    /// Frame batches read whole.
    public var batches = 0
    /// Frames that passed the validator.
    public var frames = 0
    /// Frames the validator rejected (a parity that does not check, an address/parity frame
    /// from an address no one heard).
    public var rejected = 0
    /// Payloads dropped because something in them was out of place.
    public var malformed = 0
    /// Payloads dropped because they were larger than the receiver ever sends.
    public var oversized = 0
    /// Batches that never arrived, from the gaps in the sequence numbers.
    public var missedBatches = 0
    /// Frames those batches held.
    public var missedFrames = 0
    /// Times the receiver started again (its sequence went back).
    public var restarts = 0
    /// Whether its last status said it is online (nil: no status heard).
    public var online: Bool?

    /// Nothing counted.
    public init() {}

    /// "mqtt alpha: 1200 frames in 40 batches, 0 failed the parity check, 0 malformed,
    /// 0 oversized, 2 batches (61 frames) missed", with "offline" and restarts when so.
    public func summary(label: String) -> String {
        "\(label): \(frames) frames in \(batches) batches, \(rejected) failed the parity check, \(malformed) malformed, "
            + "\(oversized) oversized, \(missedBatches) batches (\(missedFrames) frames) missed"
            + (restarts > 0 ? ", \(restarts) restarts" : "") + (online == false ? ", offline" : "")
    }
}
