import ModeS

/// A DF11 all-call reply from `address` whose parity carries interrogator code `code`.
func allCall(address: UInt32, code: UInt32) -> ModeSBits {
    var bits = ModeSBits(bitCount: 56)
    bits.setField(1, 5, 11)
    bits.setField(6, 8, 5)
    bits.setField(9, 32, UInt64(address))
    return CRC.withParity(bits, overlay: code)
}
