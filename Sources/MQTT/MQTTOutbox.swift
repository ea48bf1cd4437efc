/// The messages waiting for the broker: a bounded queue, so that a slow or absent broker
/// costs a fixed amount of memory and never holds up whoever publishes.
///
/// - When it holds `capacity` messages or `byteCapacity` payload bytes, the oldest message
///   makes room for the new one and is counted in `dropped`: after an outage the freshest
///   data is worth more than the oldest.
/// - A retained message replaces a retained message of the same topic still waiting
///   (`superseded`): only a topic's latest value matters to the broker.
/// - A message whose `expirySeconds` have passed while it waited is dropped when its turn
///   comes (`expired`).
///
/// A plain value with the time passed in; the client keeps one under its lock.
package struct MQTTOutbox: Sendable {
    /// What the queue did with the messages it was given.
    package struct Counters: Sendable, Equatable {
        /// Messages taken in.
        package var queued = 0
        /// Messages dropped to make room for newer ones.
        package var dropped = 0
        /// Retained messages replaced by a newer value of the same topic before they left.
        package var superseded = 0
        /// Messages whose expiry passed while they waited.
        package var expired = 0

        /// Nothing counted.
        package init() {}
    }

    private struct Entry: Sendable {
        var message: MQTTMessage
        var queuedAt: Double
    }

    /// The most messages held at once.
    package let capacity: Int
    /// The most payload bytes held at once.
    package let byteCapacity: Int
    /// What happened so far.
    package private(set) var counters = Counters()
    /// Messages waiting now.
    package private(set) var count = 0
    /// Payload bytes waiting now.
    package private(set) var bytes = 0

    /// The queue from `head` on; removed entries leave a hole (nil) until compaction.
    private var entries: [Entry?] = []
    private var head = 0
    /// Where the waiting retained message of each topic is in `entries`.
    private var retainedAt: [String: Int] = [:]

    /// An empty queue holding at most `capacity` messages and `byteCapacity` payload bytes.
    package init(capacity: Int = 4096, byteCapacity: Int = 8 << 20) {
        self.capacity = max(1, capacity)
        self.byteCapacity = max(1, byteCapacity)
    }

    /// Queues `message`, given at `now` (seconds).
    package mutating func push(_ message: MQTTMessage, at now: Double) {
        counters.queued += 1
        if message.retain, let index = retainedAt[message.topic] {
            remove(at: index)
            counters.superseded += 1
        }
        while count > 0, count + 1 > capacity || bytes + message.payload.count > byteCapacity {
            guard let index = firstIndex() else { break }
            remove(at: index)
            counters.dropped += 1
        }
        append(Entry(message: message, queuedAt: now))
    }

    /// Puts `message` back at the front, as the next to leave (a publish that failed because
    /// the connection had just gone). Nothing is counted.
    package mutating func pushBack(_ message: MQTTMessage, queuedAt: Double) {
        if message.retain, retainedAt[message.topic] != nil { return }
        if head > 0 {
            head -= 1
            entries[head] = Entry(message: message, queuedAt: queuedAt)
        } else {
            entries.insert(Entry(message: message, queuedAt: queuedAt), at: 0)
            retainedAt = retainedAt.mapValues { $0 + 1 }
        }
        if message.retain { retainedAt[message.topic] = head }
        count += 1
        bytes += message.payload.count
    }

    /// The next message to send at `now` with the time it was queued, dropping (and
    /// counting) those that expired while they waited; nil when none is waiting.
    package mutating func pop(at now: Double) -> (message: MQTTMessage, queuedAt: Double)? {
        while let index = firstIndex() {
            let entry = entries[index]!
            remove(at: index)
            if let expiry = entry.message.expirySeconds, now - entry.queuedAt >= Double(expiry) {
                counters.expired += 1
                continue
            }
            return (entry.message, entry.queuedAt)
        }
        return nil
    }

    private func firstIndex() -> Int? {
        var index = head
        while index < entries.count {
            if entries[index] != nil { return index }
            index += 1
        }
        return nil
    }

    private mutating func append(_ entry: Entry) {
        entries.append(entry)
        if entry.message.retain { retainedAt[entry.message.topic] = entries.count - 1 }
        count += 1
        bytes += entry.message.payload.count
    }

    private mutating func remove(at index: Int) {
        guard let entry = entries[index] else { return }
        entries[index] = nil
        if entry.message.retain, retainedAt[entry.message.topic] == index { retainedAt[entry.message.topic] = nil }
        count -= 1
        bytes -= entry.message.payload.count
        while head < entries.count, entries[head] == nil { head += 1 }
        compactIfWorthIt()
    }

    /// Drops the holes once they are the larger part of the array, so memory follows the
    /// messages waiting rather than the messages ever queued.
    private mutating func compactIfWorthIt() {
        guard entries.count > 64, count * 2 < entries.count else { return }
        entries = entries.compactMap { $0 }.map { Optional($0) }
        head = 0
        retainedAt = [:]
        for (index, entry) in entries.enumerated() where entry!.message.retain {
            retainedAt[entry!.message.topic] = index
        }
    }
}
