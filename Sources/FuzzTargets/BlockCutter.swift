/// Cuts a stream into blocks of varying size, the way reads from a socket or a file arrive:
/// the sizes come from a small deterministic generator seeded by one input byte, so a saved
/// input replays with the same cuts.
struct BlockCutter {
    private var state: UInt32
    private let largest: Int

    /// Sizes from 1 to one of 3, 64, 1000 or 9000 bytes (the seed's low two bits choose).
    init(seed: UInt8) {
        state = UInt32(seed) &* 2_654_435_761 | 1
        largest = [3, 64, 1000, 9000][Int(seed & 3)]
    }

    /// The next block size.
    mutating func next() -> Int {
        state ^= state << 13
        state ^= state >> 17
        state ^= state << 5
        return 1 + Int(state % UInt32(largest))
    }

    /// `bytes` in consecutive blocks, each handed to `body`.
    mutating func cut(_ bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws(FuzzFailure) -> Void)
        throws(FuzzFailure)
    {
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + next())
            try body(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]))
            offset = end
        }
    }
}
