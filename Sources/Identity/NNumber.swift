/// The US civil registration (N-number) an ICAO address stands for. The FAA gives its
/// addresses out in order of registration, so the registration follows from the address
/// alone, with no table.
///
/// The rule: the block runs from A00001 (N1) to ADF7C7 (N99999), 915,399 addresses. Each
/// registration is "N", a first digit 1–9, up to four more digits, and may end in one or two
/// letters (24 letters: A–Z without I and O) when it has at most four digits, or one letter
/// when it has four. Counting from A00001, the registrations are in the order of a tree:
/// after a stem of digits come, first, the stem itself; then its letter endings (A, AA, AB…
/// AZ, B, BA… ZZ: 600 of them; for a four-digit stem only the 24 single letters); then the
/// stems one digit longer (0–9), each with everything under it. So a first digit covers
/// 101,711 addresses, a second 10,111, a third 951, a fourth 35 (1 + 24 + 10) and a fifth 1.
package enum NNumber {
    /// The first address of the block.
    package static let first: UInt32 = 0xA00001
    /// The last address of the block.
    package static let last: UInt32 = 0xADF7C7
    /// The letters of a suffix, in order.
    static let letters = Array("ABCDEFGHJKLMNPQRSTUVWXYZ")
    /// How many addresses a stem of 1, 2, 3 and 4 digits covers with everything under it.
    static let stemSizes = [101_711, 10_111, 951, 35]
    /// The stem itself and its letter endings of one or two letters: 1 + 24 × 25.
    static let suffixSlots = 601

    /// The N-number of `address`, or nil when it is outside the block.
    package static func registration(for address: UInt32) -> String? {
        guard address >= first, address <= last else { return nil }
        var rest = Int(address - first)
        var text = "N"
        // The first digit has no stem before it: every address falls under one.
        text.append(String(rest / stemSizes[0] + 1))
        rest %= stemSizes[0]
        for size in stemSizes.dropFirst() {
            if rest < suffixSlots { return text + suffix(rest) }
            rest -= suffixSlots
            text.append(String(rest / size))
            rest %= size
        }
        // A four-digit stem: itself, 24 single letters, then a fifth digit.
        if rest == 0 { return text }
        if rest <= letters.count { return text + String(letters[rest - 1]) }
        return text + String(rest - letters.count - 1)
    }

    /// The letter ending of slot `slot` after a stem: none for 0, else one or two letters.
    static func suffix(_ slot: Int) -> String {
        guard slot > 0 else { return "" }
        let first = (slot - 1) / 25
        let second = (slot - 1) % 25
        return String(letters[first]) + (second == 0 ? "" : String(letters[second - 1]))
    }
}
