/// Which country an ICAO address was given out by, and whether it is from a military block:
/// ICAO gives each state blocks of the 24-bit space, and states set some of theirs aside for
/// military aircraft. The standing data's blocks overlap (a country's block holds its
/// military one); the smallest block holding an address is the one that says.
package struct AddressBlocks: Sendable {
    /// One block of addresses.
    package struct Block: Sendable, Hashable {
        /// Its first address.
        package let start: UInt32
        /// Its last address.
        package let finish: UInt32
        /// Whether it is for military aircraft.
        package let military: Bool
        /// The ISO 3166 code of the country that holds it ("GB"); "ZZ" for none.
        package let country: String

        /// A block from its fields.
        package init(start: UInt32, finish: UInt32, military: Bool, country: String) {
            self.start = start
            self.finish = finish
            self.military = military
            self.country = country
        }
    }

    /// The blocks, smallest first (of two of one size, the one given first).
    private let blocks: [Block]
    /// Country names by ISO code.
    private let countryNames: [String: String]

    /// Blocks and country names; the blocks are ordered by size here.
    package init(blocks: [Block], countryNames: [String: String]) {
        self.blocks = blocks.enumerated().sorted {
            ($0.element.finish &- $0.element.start, $0.offset) < ($1.element.finish &- $1.element.start, $1.offset)
        }.map(\.element)
        self.countryNames = countryNames
    }

    /// The smallest block holding `address`, if any.
    package func block(for address: UInt32) -> Block? {
        blocks.first { $0.start <= address && address <= $0.finish }
    }

    /// The name of the country with ISO code `code`, if known.
    package func countryName(_ code: String) -> String? { countryNames[code] }

    /// How many blocks there are.
    package var count: Int { blocks.count }
}
