import IQ

extension SampleFormat {
    /// Whether sample `index` of the samples at `raw` was clipped: a component at the
    /// converter's full scale (cu8 codes 0 and 255, cs16 ±32767, cf32 from
    /// `ReplyCanceller.clipLevel`). What lay beyond was lost, so such a sample tells only
    /// that the signal was at least that strong.
    @inline(__always)
    func isClipped(_ raw: UnsafeRawPointer, at index: Int) -> Bool {
        switch self {
        case .cu8:
            let i = raw.load(fromByteOffset: 2 * index, as: UInt8.self)
            let q = raw.load(fromByteOffset: 2 * index + 1, as: UInt8.self)
            return i == 0 || i == 255 || q == 0 || q == 255
        case .cs16:
            let i = Int16(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * index, as: Int16.self))
            let q = Int16(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * index + 2, as: Int16.self))
            return abs(Int32(i)) >= 32767 || abs(Int32(q)) >= 32767
        case .cf32:
            let i = MagnitudeConverter.cf32Component(raw, byteOffset: 8 * index)
            let q = MagnitudeConverter.cf32Component(raw, byteOffset: 8 * index + 4)
            return abs(i) >= Float(ReplyCanceller.clipLevel) || abs(q) >= Float(ReplyCanceller.clipLevel)
        }
    }
}
