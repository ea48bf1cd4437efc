/// An aircraft's object written in advance but for the fields a client's view sets
/// (`FeedAircraft.Part.radar`: bearing, x, y, rotation): what the tracker knows, its place in
/// the observer's sky, its icon scale and its route are the same for every view from one
/// place, so a radar scene writes them once per frame, and each view writes only its own four
/// fields between them. The text comes from `FeedAircraft`'s own list of fields, so the bytes are
/// those of `FeedAircraft.json`.
package struct FeedAircraftText: Sendable {
    /// `{"icao":…,…,"ground_km":…,`: the fields before the view's own.
    private let head: String
    /// `"scale":…,"route":…}`: the fields after them.
    private let tail: String

    /// The shared part of `aircraft`'s object (its view fields are not read).
    package init(_ aircraft: FeedAircraft) {
        var head = aircraft.written(.leading)
        head.removeLast()  // the closing brace
        head += ","
        self.head = head
        tail = String(aircraft.written(.trailing).dropFirst())
    }

    /// The whole object of the aircraft this text was written for, with the view fields of
    /// `shown` (the same aircraft as a view shows it): `shown.json`, byte for byte.
    package func json(shown: consuming FeedAircraft) -> String {
        var own = shown.written(.radar)
        own.removeLast()  // the closing brace
        var text = ""
        text.reserveCapacity(head.utf8.count + own.utf8.count + tail.utf8.count)
        text += head
        text += own.dropFirst()
        text += ","
        text += tail
        return text
    }
}
