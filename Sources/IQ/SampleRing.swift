import FoundationEssentials

/// A bounded hand-over of sample blocks from a producer thread (the USB callback) to a
/// consumer thread (the demodulator).
///
/// The producer must never wait: librtlsdr calls it from its USB event loop, and a stalled
/// loop loses samples inside the driver anyway. So when every slot is full, the new block is
/// dropped and counted instead. Slots are allocated once; the producer copies into a free slot
/// and the consumer reads it in place, so there is no allocation per block.
///
/// Each block keeps the wall-clock time it was pushed and the number of samples dropped
/// right before it, so the consumer's clock can count them (see `IQBlock`, `SampleClock`).
package final class SampleRing: @unchecked Sendable {
    private let condition = ThreadCondition()
    private let slots: [UnsafeMutableRawBufferPointer]
    private var lengths: [Int]
    private var arrivals: [Double]
    private var droppedBefore: [Int]
    /// Bytes per sample (2 for the dongle's cu8); drops are reported in samples.
    private let bytesPerSample: Int
    /// Bytes dropped since the last block that got a slot.
    private var droppedSinceLast = 0
    /// The wall clock, in seconds since 1970 (replaceable for tests).
    private let now: @Sendable () -> Double
    private var head = 0  // next slot to read
    private var count = 0  // filled slots
    /// Whether the consumer holds the block at `head` (counted in `count` until it is done).
    private var inHand = false
    private var closed = false
    private var dropped = 0
    /// When the producer last offered a block (kept or dropped), on the monotonic clock: a
    /// wall clock set forward (as on a computer without a battery clock once it finds the
    /// time) must not look like silence.
    private var lastPush = ContinuousClock.now

    /// A ring of `slotCount` slots of `slotSize` bytes each (8 MiB by default, allocated once),
    /// for samples of `bytesPerSample` bytes, stamping blocks with `now`.
    package init(
        slotCount: Int = SampleRing.defaultSlotCount, slotSize: Int = SampleRing.defaultSlotSize,
        bytesPerSample: Int = 2,
        now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) {
        slots = (0..<slotCount).map { _ in
            UnsafeMutableRawBufferPointer.allocate(byteCount: slotSize, alignment: 16)
        }
        lengths = Array(repeating: 0, count: slotCount)
        arrivals = Array(repeating: 0, count: slotCount)
        droppedBefore = Array(repeating: 0, count: slotCount)
        self.bytesPerSample = bytesPerSample
        self.now = now
    }

    /// The size of a slot unless told otherwise: a standard block (`IQBlock.standardByteCount`).
    /// `defaultSlotCount` of them (8) hold 1.75 s of samples at 2.4 MS/s, which a demodulator
    /// fallen behind has to catch up before samples are dropped: time for the governor to
    /// measure what it costs (half a second of samples) and step down while the other half of
    /// the ring absorbs the delay, and for a moment the thread waits for the processor.
    package static let defaultSlotSize = IQBlock.standardByteCount
    /// The number of slots unless told otherwise (see `defaultSlotSize`).
    package static let defaultSlotCount = 8

    deinit {
        for slot in slots { slot.deallocate() }
    }

    /// Bytes dropped because the consumer fell behind.
    package var droppedBytes: Int { condition.withLock { dropped } }

    /// The blocks waiting to be demodulated, as a share of the ring (0 to 1; the block being
    /// demodulated does not count): how close the producer is to dropping samples.
    package var fill: Double {
        condition.withLock { Double(count - (inHand ? 1 : 0)) / Double(slots.count) }
    }

    /// Seconds since the producer last offered a block (or since the ring was made): how long
    /// the device has been silent.
    package var secondsSinceLastPush: Double {
        let elapsed = condition.withLock { ContinuousClock.now - lastPush }
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// Copies `bytes` into a free slot, or drops them (counted) when none is free. Never
    /// blocks. Blocks larger than a slot are split.
    package func push(_ bytes: UnsafeRawBufferPointer) {
        let arrival = now()
        var offset = 0
        while offset < bytes.count {
            let slotSize = slots[0].count
            let length = min(slotSize, bytes.count - offset)
            condition.lock()
            lastPush = .now
            if closed || count == slots.count {
                if !closed {
                    dropped += bytes.count - offset
                    droppedSinceLast += bytes.count - offset
                }
                condition.unlock()
                return
            }
            let index = (head + count) % slots.count
            condition.unlock()
            // The slot is not visible to the consumer until `count` grows, so copy unlocked.
            slots[index].copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + length)]))
            condition.lock()
            lengths[index] = length
            arrivals[index] = arrival
            droppedBefore[index] = droppedSinceLast / bytesPerSample
            droppedSinceLast %= bytesPerSample
            count += 1
            condition.signal()
            condition.unlock()
            offset += length
        }
    }

    /// Waits for the next block and passes it to `body` (valid only during the call); returns
    /// false once the ring is closed and empty.
    package func pop(_ body: (IQBlock) -> Void) -> Bool {
        condition.lock()
        while count == 0 && !closed { condition.wait() }
        if count == 0 {
            condition.unlock()
            return false
        }
        let index = head
        let block = IQBlock(
            bytes: UnsafeRawBufferPointer(rebasing: slots[index][0..<lengths[index]]),
            arrival: arrivals[index], droppedSamples: droppedBefore[index])
        inHand = true
        condition.unlock()
        body(block)
        condition.lock()
        inHand = false
        head = (head + 1) % slots.count
        count -= 1
        condition.unlock()
        return true
    }

    /// Ends the hand-over: later pushes are ignored; `pop` drains what is left, then returns false.
    package func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }
}
