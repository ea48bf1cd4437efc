/// A key press the terminal radar acts on.
package enum RadarKey: Sendable, Equatable {
    /// Left arrow: turn the radar anticlockwise.
    case left
    /// Right arrow: turn the radar clockwise.
    case right
    /// Up arrow.
    case up
    /// Down arrow.
    case down
    /// Any other single character (`+`, `-`, `l`, `f`, `q`, ...).
    case character(Character)
    /// Ctrl-C, which arrives as a byte in raw mode.
    case interrupt
}
