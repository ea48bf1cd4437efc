/// A run of contiguous IQ samples as a receiver got them: the bytes, the wall-clock time the
/// last of them arrived, and how many samples were lost right before them.
///
/// The arrival time ties the sample clock to the wall clock (`SampleClock`); the dropped
/// count keeps the sample clock honest after a loss and tells the demodulator not to join
/// the samples on either side of the gap. Valid only during the call it is passed to.
package struct IQBlock {
    /// The samples, in the stream's format.
    package var bytes: UnsafeRawBufferPointer
    /// When the last sample arrived, in seconds since 1970.
    package var arrival: Double
    /// Samples lost between the previous block and this one.
    package var droppedSamples: Int

    /// The size of the blocks every source hands on: 1 MiB, about 218 ms of cu8 samples at
    /// 2.4 MS/s (librtlsdr's transfers, the network source's gathering, a replay's reads).
    ///
    /// The demodulator works through a block in one go and then waits for the next. Between
    /// two blocks its tables and buffers grow cold, and warming them again is paid per block:
    /// a 300-aircraft sky at real pace costs about a sixth more CPU time in 256 KiB blocks (55 ms)
    /// than in 1 MiB ones. Larger blocks save little more and delay what the radar shows.
    package static let standardByteCount = 1 << 20

    /// A block of `bytes` that arrived at `arrival`, after `droppedSamples` lost samples.
    package init(bytes: UnsafeRawBufferPointer, arrival: Double, droppedSamples: Int = 0) {
        self.bytes = bytes
        self.arrival = arrival
        self.droppedSamples = droppedSamples
    }
}
