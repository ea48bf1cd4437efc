/// Values by name in the order they were last heard, the longest silent first: the MQTT
/// input's receivers. A network can name thousands of receivers, and made-up names can come
/// by the thousand a second, so every step is constant time: finding a value, hearing it
/// again (it moves to the end), and letting the longest-silent one go (from the front).
///
/// A doubly linked list threaded through an array, with freed slots reused: no allocation
/// once the table has been full.
package struct RecencyTable<Value: Sendable>: Sendable {
    private struct Entry: Sendable {
        var name: String
        var value: Value
        var heard: Double
        var older = -1
        var newer = -1
    }

    private var entries: [Entry] = []
    private var freeSlots: [Int] = []
    private var slots: [String: Int] = [:]
    private var oldestSlot = -1
    private var newestSlot = -1

    /// An empty table.
    package init() {}

    /// How many names it holds.
    package var count: Int { slots.count }

    /// The value kept for `name`, if any.
    package subscript(name: String) -> Value? {
        slots[name].map { entries[$0].value }
    }

    /// The longest-silent name and when it was last heard.
    package var oldest: (name: String, heard: Double)? {
        oldestSlot < 0 ? nil : (entries[oldestSlot].name, entries[oldestSlot].heard)
    }

    /// Keeps `value` for `name`, heard at `time`: it becomes the most recent.
    package mutating func set(_ value: Value, for name: String, heardAt time: Double) {
        if let slot = slots[name] {
            entries[slot].value = value
            entries[slot].heard = time
            unlink(slot)
            append(slot)
            return
        }
        let entry = Entry(name: name, value: value, heard: time)
        let slot: Int
        if let free = freeSlots.popLast() {
            entries[free] = entry
            slot = free
        } else {
            entries.append(entry)
            slot = entries.count - 1
        }
        slots[name] = slot
        append(slot)
    }

    /// Removes the longest-silent name and returns it with its value.
    package mutating func removeOldest() -> (name: String, value: Value)? {
        guard oldestSlot >= 0 else { return nil }
        let slot = oldestSlot
        unlink(slot)
        let entry = entries[slot]
        slots[entry.name] = nil
        freeSlots.append(slot)
        return (entry.name, entry.value)
    }

    /// Every name and value, the longest silent first.
    package var all: [(name: String, value: Value)] {
        var result: [(name: String, value: Value)] = []
        result.reserveCapacity(count)
        var slot = oldestSlot
        while slot >= 0 {
            result.append((entries[slot].name, entries[slot].value))
            slot = entries[slot].newer
        }
        return result
    }

    private mutating func unlink(_ slot: Int) {
        let (older, newer) = (entries[slot].older, entries[slot].newer)
        if older >= 0 { entries[older].newer = newer } else { oldestSlot = newer }
        if newer >= 0 { entries[newer].older = older } else { newestSlot = older }
        entries[slot].older = -1
        entries[slot].newer = -1
    }

    private mutating func append(_ slot: Int) {
        entries[slot].older = newestSlot
        if newestSlot >= 0 { entries[newestSlot].newer = slot } else { oldestSlot = slot }
        newestSlot = slot
    }
}
