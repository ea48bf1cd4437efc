/// The character an aircraft is drawn with: an arrow pointing the way it flies, in one of
/// eight directions, and heavier the lower it is (a larger `scale`), since low aircraft are
/// the ones you can see.
package enum AircraftGlyph {
    /// Thin arrows for high aircraft, clockwise from up.
    static let thin: [Character] = ["↑", "↗", "→", "↘", "↓", "↙", "←", "↖"]
    /// Double arrows for lower ones, clockwise from up.
    static let double: [Character] = ["⇑", "⇗", "⇒", "⇘", "⇓", "⇙", "⇐", "⇖"]
    /// Drawn when the direction of flight is unknown.
    static let noTrack: Character = "◆"

    /// Size class from the feed's `scale` (0.7 to 2): 0 above about 5,000 m (scale < 1),
    /// 1 down to about 1,600 m or 5,000 ft (scale 1.5 = 4.7 − log10(1585)), 2 below, where
    /// an aircraft is low enough to be seen and heard.
    package static func size(scale: Double?) -> Int {
        guard let scale else { return 0 }
        return scale >= 1.5 ? 2 : scale >= 1.0 ? 1 : 0
    }

    /// Which of the eight directions `rotationDeg` is nearest: 0 up, 1 up-right, ... 7 up-left.
    package static func direction(rotationDeg: Double) -> Int {
        guard rotationDeg.isFinite else { return 0 }
        let sector = Int((rotationDeg.truncatingRemainder(dividingBy: 360) / 45).rounded()) % 8
        return sector < 0 ? sector + 8 : sector
    }

    /// The glyph for an aircraft turned `rotationDeg` (nil: unknown) of size class `size`.
    package static func character(rotationDeg: Double?, size: Int) -> Character {
        guard let rotationDeg, rotationDeg.isFinite else { return noTrack }
        let arrows = size == 0 ? thin : double
        return arrows[direction(rotationDeg: rotationDeg)]
    }
}
