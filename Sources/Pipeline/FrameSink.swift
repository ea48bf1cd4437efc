import ModeS

/// Where every source delivers what it receives: frames (from a demodulator, a Beast peer, the
/// network of receivers), whole state reports (OpenSky), a local receiver's sample counts, and
/// what it is. Sources know nothing beyond this protocol; the daemon hands them its
/// `FramePipeline`, and tests hand them a recorder.
///
/// Called from the receiving threads and tasks: an implementation is thread-safe and quick.
package protocol FrameSink: AnyObject, Sendable {
    /// Takes `frame` from the source labelled `source`, received at `time` (seconds since 1970;
    /// a time in the future counts as now). Returns false when it was dropped as a copy of a
    /// frame another source delivered just before.
    @discardableResult
    func accept(_ frame: Frame, at time: Double, from source: String) -> Bool

    /// Takes a whole state report of one aircraft (an OpenSky state vector).
    func accept(_ report: StateReport)

    /// Adds what a local receiver counted in one block of samples.
    func addLocal(_ block: LocalStatistics)

    /// Names what feeds `slot` now (nil: nothing). Each configured source has a slot (its
    /// label); the dongle's slot switches between "rtl-sdr" and its fallback.
    func setSource(_ name: String?, slot: String)

    /// Says that the frames labelled `source` come from another receiver at `position` (nil:
    /// a receiver whose position is not known yet), so that their positions are decoded from
    /// there.
    func setPosition(_ position: GeoPoint?, ofSource source: String)

    /// Forgets the source labelled `source` (a receiver of the network gone silent, or given
    /// way to a new one): its position goes, and its counts join the summed rest, so that
    /// made-up labels cannot grow what is kept.
    func forgetSource(_ source: String)
}

extension FrameSink {
    /// Takes `frame` from the single local receiver (`FramePipeline.localSource`).
    @discardableResult
    package func accept(_ frame: Frame, at time: Double) -> Bool {
        accept(frame, at: time, from: FramePipeline.localSource)
    }
}
