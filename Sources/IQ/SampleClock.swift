/// Counts a stream's samples, lost ones included, and says when a sample was received.
///
/// Two clocks meet here. The sample clock (12 MHz ticks, the Beast convention) counts every
/// sample since the stream started, including those the receiver reported dropped, so it
/// keeps pace with the dongle's crystal whatever happened downstream; multilateration
/// compares these timestamps between receivers. The wall clock says when things happened:
/// each block anchors the sample clock to its arrival time, and a frame's time is that
/// arrival less the duration of the samples after it. A stall, a loss nobody reported (the
/// USB stack overflowing while the process was stopped) or a replay faster than real time
/// therefore never leaves frame times behind or ahead of the wall clock by more than a block.
package struct SampleClock: Sendable {
    /// Samples per second.
    package let sampleRate: Int
    /// Samples counted so far, dropped ones included: the index of the next sample.
    package private(set) var samples = 0
    /// Samples the receiver reported lost.
    package private(set) var droppedSamples = 0
    /// Arrival time of the latest block, and the index just past its last sample.
    private var anchor: (time: Double, sample: Int)?
    /// The latest time handed out: frame times never go backwards.
    private var latest = 0.0

    /// A clock for a stream of `sampleRate` samples a second.
    package init(sampleRate: Int) {
        self.sampleRate = sampleRate
    }

    /// 12 MHz ticks per sample.
    package var ticksPerSample: Int { 12_000_000 / sampleRate }

    /// Counts a block of `count` samples that arrived at `arrival`, after `dropped` samples
    /// the receiver reported lost.
    package mutating func advance(count: Int, arrival: Double, dropped: Int) {
        let lost = max(0, dropped)
        samples += lost + count
        droppedSamples += lost
        anchor = (arrival, samples)
    }

    /// Stamps a frame whose first sample has 12 MHz timestamp `ticks` with when it was
    /// received, in seconds since 1970: the latest block's arrival less the samples after it,
    /// never earlier than a frame stamped before (nor later than that arrival). Not a read:
    /// each stamp moves the earliest time the next one may give.
    package mutating func stamp(timestamp ticks: UInt64) -> Double {
        guard let anchor else { return latest }
        let sample = Int(clamping: ticks / UInt64(ticksPerSample))
        let after = max(0, anchor.sample - sample)
        let time = max(latest, anchor.time - Double(after) / Double(sampleRate))
        latest = time
        return time
    }
}
