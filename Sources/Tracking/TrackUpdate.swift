import ModeS

/// What one accepted message did to the tracker: the message with its position resolved
/// (`latitude`/`longitude` set when this very message fixed a position) and the aircraft's
/// state after the merge. Outputs receive these, so an encoder never has to work out from
/// timestamps what the message contributed.
package struct TrackUpdate: Sendable {
    /// The frame the message was decoded from, when it came from a receiver of frames.
    package var frame: Frame?
    /// The decoded message, position resolved.
    package var message: Message
    /// The aircraft after the merge.
    package var aircraft: AircraftState
    /// The label of the source that delivered the frame (`LiveTracker.accept(_:at:from:)`), so
    /// an output can leave out what it must not send back where it came from.
    package var source: String = ""

    /// An update from its parts.
    package init(frame: Frame? = nil, message: Message, aircraft: AircraftState) {
        self.frame = frame
        self.message = message
        self.aircraft = aircraft
    }
}
