import ModeS

/// One frame the pipeline admitted: the frame, its message decoded once, where and when it
/// was received. The tracker merges these; the frame taps (Beast, AVR, MQTT) read them.
package struct DecodedFrame: Sendable {
    /// The frame as received (CRC-checked, with its level and 12 MHz timestamp).
    package var frame: Frame
    /// The frame decoded (positions not yet resolved: that needs the aircraft's history).
    package var message: Message
    /// The label of the source that delivered it, e.g. "rtl-sdr", "beast-in 10.0.0.2:30005".
    package var source: String
    /// When it was received, in seconds since 1970, never later than the pipeline's now.
    package var received: Double
    /// Where the receiver that heard it is: this receiver, or the receiver of the network that
    /// delivered it (nil: not known, so positions are decoded globally only).
    package var heardAt: GeoPoint?

    /// A decoded frame from its parts.
    package init(frame: Frame, message: Message, source: String, received: Double, heardAt: GeoPoint?) {
        self.frame = frame
        self.message = message
        self.source = source
        self.received = received
        self.heardAt = heardAt
    }
}

/// What comes after the pipeline: the tracker, which merges decoded frames and state reports
/// into aircraft.
package protocol DecodedFrameSink: Sendable {
    /// Merges one admitted frame.
    func merge(_ decoded: DecodedFrame)
    /// Merges one state report (times already cut back to now).
    func merge(_ report: StateReport)
}
