/// One minute of the receiver, as stats.json counts it: the chart series.
package struct MinuteStatistics: Sendable, Equatable {
    /// The minute's start, seconds since 1970 (a multiple of 60).
    package var time: Int
    /// Messages received in the minute.
    package var messages: Int
    /// Aircraft heard in the minute.
    package var aircraft: Int
    /// Of those, with a position.
    package var withPosition: Int
    /// Furthest position from the receiver, kilometres.
    package var maxRangeKm: Double?
    /// Mean signal of the accepted frames, dBFS.
    package var signalDBFS: Double?
    /// Mean noise power of the samples, dBFS.
    package var noiseDBFS: Double?
    /// The strongest frame, dBFS.
    package var peakSignalDBFS: Double?

    /// A minute from its parts.
    package init(
        time: Int, messages: Int, aircraft: Int, withPosition: Int, maxRangeKm: Double? = nil,
        signalDBFS: Double? = nil, noiseDBFS: Double? = nil, peakSignalDBFS: Double? = nil
    ) {
        self.time = time
        self.messages = messages
        self.aircraft = aircraft
        self.withPosition = withPosition
        self.maxRangeKm = maxRangeKm
        self.signalDBFS = signalDBFS
        self.noiseDBFS = noiseDBFS
        self.peakSignalDBFS = peakSignalDBFS
    }
}
