/// Whether each of the four samples whose clipped flags (`Bool`s, one byte each) start at
/// `flags` was clipped, as a lane mask: for the sums that the canceller and the channel fit
/// take four samples at a time, which leave clipped samples out.
@inline(__always)
func clippedLanes(_ flags: UnsafeRawPointer) -> SIMDMask<SIMD4<Int32>> {
    SIMD4<Float>(flags.loadUnaligned(as: SIMD4<UInt8>.self)) .> 0
}
