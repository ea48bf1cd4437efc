import FeedProtocol

/// The daemon's radar options (`--heading`, `--range-km`, `--frame-interval`): the view every
/// feed client starts with and how often frames are sent.
package struct RadarConfiguration: Sendable, Equatable {
    /// Degrees from true north the top of the screen points to (0 if unknown).
    package var headingDeg: Double
    /// Radius of the radar in kilometres.
    package var rangeKm: Double
    /// Seconds between frames.
    package var frameInterval: Double

    /// Shortest frame interval accepted: 20 frames a second is smoother than any radar needs.
    package static let minFrameInterval = 0.05
    /// Longest frame interval accepted: beyond a minute the picture is no longer live.
    package static let maxFrameInterval = 60.0

    /// The configuration; by default north up, 50 km, one frame a second.
    package init(headingDeg: Double = 0, rangeKm: Double = 50, frameInterval: Double = 1) {
        self.headingDeg = headingDeg
        self.rangeKm = rangeKm
        self.frameInterval = frameInterval
    }

    /// The view new clients start with.
    package var defaultView: RadarView {
        RadarView(headingDeg: headingDeg == 360 ? 0 : headingDeg, rangeKm: rangeKm)
    }

    /// Why the options are unusable, phrased with the option names; nil when they are valid.
    package var problem: String? {
        if !headingDeg.isFinite || headingDeg < 0 || headingDeg > 360 {
            return "--heading must be between 0 and 360 degrees, got \(RadarView.show(headingDeg))"
        }
        if !RadarView.isDistance(rangeKm) {
            return
                "--range-km must be between \(RadarView.show(RadarView.Limits.minRangeKm)) and \(RadarView.show(RadarView.Limits.maxRangeKm)), got \(RadarView.show(rangeKm))"
        }
        if !frameInterval.isFinite || frameInterval < Self.minFrameInterval || frameInterval > Self.maxFrameInterval {
            return
                "--frame-interval must be between \(Self.minFrameInterval) and \(RadarView.show(Self.maxFrameInterval)) seconds, got \(frameInterval)"
        }
        return nil
    }
}
