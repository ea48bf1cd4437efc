import ModeS

/// A cheap test, run at every sample, of whether a reply could start there. Only samples
/// that pass it get the full preamble scoring, so it must be fast and must rarely reject a
/// real reply; false alarms only cost time.
///
/// Each sample rate has its own gate (`Gate2400`, `Gate2000`) because which samples surely
/// hold a preamble pulse, and which surely hold none, depends on the samples per chip.
/// Both compare the sum of four samples that surely hold pulse energy with the sum of six
/// that are surely quiet, in the two ways `GateLimits` describes.
protocol CandidateGate {
    /// The sums of the four pulse samples and of the six quiet samples of a start at `m`.
    static func sums(_ m: UnsafePointer<UInt16>) -> (pulses: Int32, quiet: Int32)
    /// Which of the eight starts `m`, `m + 1`, ..., `m + 7` pass, tested at once (SIMD): bit
    /// `k` is set when start `m + k` passes. Most of the stream is noise where all eight
    /// fail, so the scan mostly advances eight samples per test; where some pass, it goes
    /// straight to them.
    static func passingOfEight(_ m: UnsafePointer<UInt16>, _ limits: GateLimits) -> UInt8
    /// The two starts 3.5 µs after a start, between which a reply whose third and fourth
    /// pulses sit at that start's first two begins.
    static var shadowOffsets: (Int, Int) { get }
}

extension CandidateGate {
    /// Whether the samples at `m` may start a preamble.
    @inline(__always)
    static func passes(_ m: UnsafePointer<UInt16>, _ limits: GateLimits) -> Bool {
        let (pulses, quiet) = sums(m)
        return limits.admits(pulses: pulses, quiet: quiet)
    }

    /// The contrast at `m`, `6 × pulses − 4 × quiet` (24 × the difference of their means):
    /// a rough preamble strength, cheap enough to compare two starts before scoring either
    /// (see `AcceptancePolicy.shadowsStrongerPreamble`).
    @inline(__always)
    static func contrast(_ m: UnsafePointer<UInt16>) -> Int32 {
        let (pulses, quiet) = sums(m)
        return 6 &* pulses &- 4 &* quiet
    }

    /// Whether the start at `samples`, whose best preamble score is `score`, is the shadow
    /// of a much stronger preamble 3.5 µs later (`AcceptancePolicy.shadowsStrongerPreamble`):
    /// the contrasts first, `detector`'s scores only where those suggest it.
    static func shadowsStrongerPreamble(
        _ samples: UnsafePointer<UInt16>, score: Int32, floor: UInt32,
        detector: PreambleDetector
    ) -> Bool {
        let (near, far) = shadowOffsets
        return AcceptancePolicy.shadowsStrongerPreamble(
            contrast: contrast(samples),
            laterContrast: max(contrast(samples + near), contrast(samples + far))
        ) {
            let first = detector.phases(at: samples + near, floor: floor)
            let second = detector.phases(at: samples + far, floor: floor)
            return (score, max(first.count > 0 ? first.score(0) : 0, second.count > 0 ? second.score(0) : 0))
        }
    }
}

/// The two tests of a `CandidateGate` for one noise floor, on the sums of its four pulse
/// samples (`pulses`) and its six quiet samples (`quiet`).
///
/// - Contrast: `6 × pulses − 4 × quiet` is 24 × (mean pulse − mean quiet), and must exceed
///   `threshold`.
/// - Quiet: the quiet samples' mean may stand above the floor by at most `L` sixteenths of
///   what the pulses' mean stands above it. Inside another reply, Manchester data fills
///   every other chip, and windows that mimic a preamble's pulses there pass the contrast
///   test at about one start in three; the preamble detector then refuses nearly all of
///   them for their filled quiet chips (`PreambleDetector.maximumQuietToPulseSixteenths`:
///   half the pulse level, over twelve chips), at several times the gate's cost. The gate's
///   six samples are a noisier yardstick than the detector's twelve chips, so its limit is
///   looser (`Options.gateQuietSixteenths`): it refuses most such windows, and a real
///   preamble only when an echo or another reply already fills its quiet chips.
///   With mean quiet = quiet / 6 and mean pulse = pulses / 4, the test
///   16 · (quiet / 6 − floor) ≤ L · (pulses / 4 − floor) is, times 12, the integer test
///   `32 × quiet + (12 · L − 192) · floor ≤ 3 · L × pulses`.
struct GateLimits {
    /// The least `6 × pulses − 4 × quiet` that passes.
    var threshold: Int32
    /// `(12 · L − 192) · floor` of the quiet test.
    let quietOffset: Int32
    /// `3 · L` of the quiet test.
    let pulseWeight: Int32

    /// The limits for noise `floor`: a contrast of `contrastSixteenths` sixteenths of the
    /// floor, and a quiet limit of `quietSixteenths` (nil or 16 and more: no quiet test).
    init(floor: UInt32, contrastSixteenths: Int32, quietSixteenths: Int32?) {
        threshold = Int32(truncatingIfNeeded: (Int64(floor) * 24 * Int64(contrastSixteenths)) >> 4)
        if let quiet = quietSixteenths, quiet < 16 {
            quietOffset = Int32(clamping: (12 * Int64(quiet) - 192) * Int64(floor))
            pulseWeight = 3 * max(0, quiet)
        } else {
            // A test that always passes: 32 × quiet is at most 32 · 6 · 65535, far below 2^30.
            quietOffset = Int32.min / 2
            pulseWeight = 0
        }
    }

    /// The same limits with a contrast threshold of `threshold`.
    func with(threshold: Int32) -> GateLimits {
        var limits = self
        limits.threshold = threshold
        return limits
    }

    /// Both tests on one start's sums.
    @inline(__always)
    func admits(pulses: Int32, quiet: Int32) -> Bool {
        6 &* pulses &- 4 &* quiet > threshold && 32 &* quiet &+ quietOffset <= pulseWeight &* pulses
    }

    /// Both tests on eight starts' sums at once: bit `k` of the result is set when start `k`
    /// passes both. Each test is a margin that is at least 0 where it passes, and a start
    /// passes both where the smaller of its margins is, whose sign bit is then clear (masks
    /// combined with `.&` would compile to a loop over the lanes). Where all eight fail, as
    /// they mostly do, one comparison says so before any bit is gathered.
    @inline(__always)
    func admittedLanes(pulses: SIMD8<Int32>, quiet: SIMD8<Int32>) -> UInt8 {
        let contrast = 6 &* pulses &- 4 &* quiet &- SIMD8(repeating: threshold &+ 1)
        // In noise the contrast alone fails all eight nearly always: the quiet test, whose
        // multiplication is the dearer, is then not needed.
        guard contrast.max() >= 0 else { return 0 }
        let calm = pulseWeight &* pulses &- 32 &* quiet &- SIMD8(repeating: quietOffset)
        let margin = pointwiseMin(contrast, calm)
        guard margin.max() >= 0 else { return 0 }
        // All ones where a lane fails, zero where it passes.
        let failing = margin &>> 31
        let lanes = SIMD8<Int32>(1, 2, 4, 8, 16, 32, 64, 128)
        return UInt8(truncatingIfNeeded: (lanes & ~failing).wrappedSum())
    }
}

/// Eight consecutive magnitudes starting at `m + offset`, widened for arithmetic.
@inline(__always)
func lanes(_ m: UnsafePointer<UInt16>, _ offset: Int) -> SIMD8<Int32> {
    widened(narrowLanes(m, offset))
}

/// For eight consecutive starts from `m + offset`, the larger of each start's sample and
/// the next, widened for arithmetic: the larger is taken in the samples' own 16 bits, so
/// only one value per pair is widened.
@inline(__always)
func largerOfPairs(_ m: UnsafePointer<UInt16>, _ offset: Int) -> SIMD8<Int32> {
    widened(pointwiseMax(narrowLanes(m, offset), narrowLanes(m, offset + 1)))
}

/// Eight magnitudes widened for arithmetic, lane by lane: the generic vector conversion is
/// at times left as a call by the optimiser, in the scan's hottest loops, where this one is
/// always inlined into the vector code around it.
@inline(__always)
func widened(_ v: SIMD8<UInt16>) -> SIMD8<Int32> {
    SIMD8(Int32(v[0]), Int32(v[1]), Int32(v[2]), Int32(v[3]), Int32(v[4]), Int32(v[5]), Int32(v[6]), Int32(v[7]))
}

/// Eight consecutive magnitudes starting at `m + offset`, as they are stored.
@inline(__always)
func narrowLanes(_ m: UnsafePointer<UInt16>, _ offset: Int) -> SIMD8<UInt16> {
    UnsafeRawPointer(m + offset).loadUnaligned(as: SIMD8<UInt16>.self)
}
