import ModeS

/// The envelope of a reply's chips, computed sample by sample: what the channel fit
/// correlates and fits, and what the canceller projects the samples on.
///
/// A sample integrates the signal over its own period, so it holds a share of each chip it
/// overlaps: at most two, since a sample lasts no longer than a chip at either rate. Per
/// origin (where the first chip starts, in tenths of a sample) and sample, the table keeps
/// the earlier of those chips and the shares (`overlap / 10`) of it and of the chip after
/// it (0 where the sample holds one chip only); a sample before or after every chip names
/// the chip `chips`, which is never on. The envelope of a sample is then the two chips'
/// states, one load, times their shares, written once, rather than each chip's shares
/// added into memory (whose stores and overlapping loads stall each other). A sum of two
/// is the same in either order, so this is the envelope built chip by chip.
///
/// A class only to own its tables in raw memory, read without bounds checks or reference
/// counting in the hot path.
final class ChipEnvelope {
    /// Chips in a long reply with its preamble.
    static let chips = ReplyKernels.preambleChips + 2 * ReplyKernels.maximumBits
    /// Samples each origin's table covers from the start of its first sample.
    let length: Int
    /// 1 for each chip that is on, 0 for the others (and for `chips` and the one after it,
    /// past the reply).
    /// The preamble's pulses are set once, here; `set(_:)` sets the bits' chips.
    let chipOn: UnsafeMutablePointer<Float>
    private let sampleChips: UnsafeMutablePointer<Int32>
    private let sampleShares: UnsafeMutablePointer<SIMD2<Float>>
    /// The same overlaps chip by chip, `chips` entries per origin: the first sample each
    /// chip touches and its shares of up to four samples from there (a chip lasts 1.2
    /// samples at 2.4 MS/s, so it can touch three), for what is built chip by chip (the
    /// channel fit's flip templates).
    let chipFirstSample: UnsafeMutablePointer<Int32>
    let chipShares: UnsafeMutablePointer<SIMD4<Float>>

    /// Tables for chips `tenthsPerChip` tenths of a sample long, starting at each of
    /// `origins` (tenths, 0 ... 9), over `length` samples.
    init(tenthsPerChip chip: Int, origins: [Int], length: Int) {
        self.length = length
        let count = origins.count * length
        sampleChips = .allocate(capacity: count)
        sampleChips.initialize(repeating: Int32(Self.chips), count: count)
        sampleShares = .allocate(capacity: count)
        sampleShares.initialize(repeating: SIMD2(repeating: 0), count: count)
        chipFirstSample = .allocate(capacity: origins.count * Self.chips)
        chipShares = .allocate(capacity: origins.count * Self.chips)
        for (row, origin) in origins.enumerated() {
            for index in 0..<Self.chips {
                let start = origin + index * chip
                let end = start + chip
                // Tenths of sample `sample` the chip covers (negative: none).
                func overlap(_ sample: Int) -> Int { min(10 * sample + 10, end) - max(10 * sample, start) }
                var shares = SIMD4<Float>(repeating: 0)
                for lane in 0..<4 { shares[lane] = Float(max(0, overlap(start / 10 + lane))) / 10 }
                (chipFirstSample + row * Self.chips + index).initialize(to: Int32(start / 10))
                (chipShares + row * Self.chips + index).initialize(to: shares)
                var sample = start / 10
                while 10 * sample < end, sample < length {
                    let overlap = overlap(sample)
                    let entry = row * length + sample
                    // Chips come in order, so the first one to touch a sample is the earlier.
                    let slot = sampleChips[entry] == Int32(Self.chips) ? 0 : 1
                    precondition(
                        slot == 0 || sampleChips[entry] == Int32(index - 1) && sampleShares[entry][1] == 0,
                        "a sample overlaps three chips")
                    if slot == 0 { sampleChips[entry] = Int32(index) }
                    sampleShares[entry][slot] = Float(overlap) / 10
                    sample += 1
                }
            }
        }
        chipOn = .allocate(capacity: Self.chips + 2)
        chipOn.initialize(repeating: 0, count: Self.chips + 2)
        for index in ReplyKernels.preamblePulseChips { chipOn[index] = 1 }
    }

    deinit {
        sampleChips.deallocate()
        sampleShares.deallocate()
        chipFirstSample.deallocate()
        chipShares.deallocate()
        chipOn.deallocate()
    }

    /// Sets the chips of `bits`: each bit has exactly one pulse, in its first chip for a 1
    /// and its second for a 0. Chips past the reply are off.
    @inline(__always)
    func set(_ bits: ModeSBits) {
        for bit in 0..<bits.bitCount {
            // Converted, not branched on: the bits are as good as random.
            let one = Float(UInt32(truncatingIfNeeded: bits.bit(bit + 1)))
            chipOn[ReplyKernels.preambleChips + 2 * bit] = one
            chipOn[ReplyKernels.preambleChips + 2 * bit + 1] = 1 - one
        }
        let used = ReplyKernels.preambleChips + 2 * bits.bitCount
        (chipOn + used).update(repeating: 0, count: Self.chips - used)
    }

    /// The table of row `row` of the `origins` the tables were made for, with the chips'
    /// states: a value to keep in a local for a loop over the samples.
    @inline(__always)
    func row(_ row: Int) -> Row {
        Row(chips: sampleChips + row * length, shares: sampleShares + row * length, chipOn: chipOn)
    }

    /// One origin's table and the chips' states.
    struct Row {
        let chips: UnsafePointer<Int32>
        let shares: UnsafePointer<SIMD2<Float>>
        let chipOn: UnsafePointer<Float>

        /// The envelope of sample `sample` (0 ..< the table's `length`).
        @inline(__always)
        func value(_ sample: Int) -> Float {
            let on = UnsafeRawPointer(chipOn + Int(chips[sample])).loadUnaligned(as: SIMD2<Float>.self)
            return (on * shares[sample]).sum()
        }
    }
}
