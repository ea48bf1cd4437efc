/// A run of contiguous IQ samples as a receiver got them: the bytes, the wall-clock time the
/// last of them arrived, and how many samples were lost right before them.
///
/// The arrival time ties the sample clock to the wall clock (`SampleClock`); the dropped
/// count keeps the sample clock honest after a loss and tells the demodulator not to join
/// the samples on either side of the gap. Valid only during the call it is passed to.
public struct IQBlock {
    /// The samples, in the stream's format.
    public var bytes: UnsafeRawBufferPointer
    /// When the last sample arrived, in seconds since 1970.
    public var arrival: Double
    /// Samples lost between the previous block and this one.
    public var droppedSamples: Int

    /// A block of `bytes` that arrived at `arrival`, after `droppedSamples` lost samples.
    public init(bytes: UnsafeRawBufferPointer, arrival: Double, droppedSamples: Int = 0) {
        self.bytes = bytes
        self.arrival = arrival
        self.droppedSamples = droppedSamples
    }
}
