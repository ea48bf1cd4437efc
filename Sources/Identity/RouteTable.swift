/// Routes by normalised callsign, compactly: the standing data's 620,000 routes in three
/// arrays (a sorted 64-bit key per callsign, where its airports start, and the airports as
/// 16-bit indexes into the store's airport list), about 10 MB where a dictionary of strings
/// would take many times that.
package struct RouteTable: Sendable {
    /// The keys (`Callsign.key`), ascending.
    private var keys: [UInt64] = []
    /// Per route, where its airports start in `legs`; one more at the end.
    private var starts: [UInt32] = [0]
    /// The airports of every route in order, as indexes into the store's airports.
    private var legs: [UInt16] = []

    /// An empty table.
    package init() {}

    /// How many routes it holds.
    package var count: Int { keys.count }

    /// The bytes it holds, about what it takes in memory.
    package var byteCount: Int { keys.count * 8 + starts.count * 4 + legs.count * 2 }

    /// The airport indexes of the route of `key`, if the table has it.
    package func airports(for key: UInt64) -> ArraySlice<UInt16>? {
        var low = 0
        var high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if keys[middle] < key { low = middle + 1 } else { high = middle }
        }
        guard low < keys.count, keys[low] == key else { return nil }
        return legs[Int(starts[low])..<Int(starts[low + 1])]
    }

    /// Adds the route of `key`; keys must come in ascending order, and a key not above the
    /// last one is refused (returns false).
    package mutating func append(key: UInt64, airports: ArraySlice<UInt16>) -> Bool {
        guard keys.last.map({ $0 < key }) ?? true, airports.count >= 2 else { return false }
        keys.append(key)
        legs.append(contentsOf: airports)
        starts.append(UInt32(legs.count))
        return true
    }

    /// Gives back the room the arrays grew into beyond what they hold.
    package mutating func shrink() {
        keys = keys.withUnsafeBufferPointer { Array($0) }
        starts = starts.withUnsafeBufferPointer { Array($0) }
        legs = legs.withUnsafeBufferPointer { Array($0) }
    }
}
