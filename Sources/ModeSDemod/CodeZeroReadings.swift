/// The last few slices that read an all-call reply (DF11) as code 0, the acquisition
/// squitter's: where each started and the address it named.
///
/// Slices of one reply at neighbouring starts or phases read the same address, and most often the
/// same code. When one read code 0 and a later one a station's code, a code bit of that reply was
/// decided both ways, and no parity tells which way is right: the code-0 reading test
/// (`AcceptancePolicy.stationCodeStands`) then refuses the station's code. The memory is short, as
/// the readings of one reply come within a few samples of each other.
struct CodeZeroReadings {
    /// More than the slices a few neighbouring starts make.
    static let capacity = 8
    private var starts = [Int](repeating: Int.min, count: capacity)
    private var addresses = [UInt32](repeating: 0, count: capacity)
    /// Where the next reading goes; the oldest one is overwritten.
    private var next = 0

    init() {}

    /// Remembers that the slice starting at `start` read `address` with code 0.
    mutating func record(address: UInt32, at start: Int) {
        starts[next] = start
        addresses[next] = address
        next = (next + 1) % Self.capacity
    }

    /// Whether a slice starting within `reach` samples of `start` read `address` with code 0.
    func contains(address: UInt32, near start: Int, reach: Int) -> Bool {
        (0..<Self.capacity).contains { addresses[$0] == address && (start - reach)...(start + reach) ~= starts[$0] }
    }
}
