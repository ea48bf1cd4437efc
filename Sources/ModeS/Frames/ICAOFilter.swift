/// The addresses recently confirmed by a message whose CRC really checked (DF11 or DF17/18).
///
/// Address/parity formats (DF0/4/5/16/20/21) carry no checkable parity: the CRC remainder *is*
/// the address, so any noise burst yields some address. Accepting such a frame only when its
/// address was recently confirmed this way is what keeps noise from creating phantom aircraft.
///
/// Two generations of sets make expiry cheap: an address is known while it is in either, and
/// the older generation is dropped every `expiry` seconds, so an address stays known for
/// between one and two `expiry` periods after it was last confirmed.
///
/// Times from outside may be wrong, so they cannot hold memory hostage: a time before the
/// current generation began (after one far in the future, say) starts the generation again
/// from there, a time that is not finite does not move the clock, and a generation that
/// reaches `maximumGeneration` addresses is retired early whatever the times.
public struct ICAOFilter: Sendable {
    /// The most addresses one generation holds: far more than a sky's worth in a minute.
    public static let maximumGeneration = 100_000
    /// How long (seconds) an address stays known at least after its last confirmation.
    public let expiry: Double
    private var current = Set<UInt32>()
    private var previous = Set<UInt32>()
    private var generationStart: Double?

    /// A filter whose addresses expire `expiry` seconds after they were last confirmed.
    public init(expiry: Double = 60) {
        self.expiry = expiry
    }

    /// Records that `address` was confirmed at `time` (seconds, any monotonic origin).
    public mutating func confirm(_ address: UInt32, at time: Double) {
        advance(to: time)
        if current.count >= Self.maximumGeneration {
            swap(&previous, &current)
            current.removeAll(keepingCapacity: true)
        }
        current.insert(address)
    }

    /// Whether `address` was confirmed recently as of `time`.
    public mutating func contains(_ address: UInt32, at time: Double) -> Bool {
        advance(to: time)
        return current.contains(address) || previous.contains(address)
    }

    /// The number of addresses currently known.
    public var count: Int { current.union(previous).count }

    private mutating func advance(to time: Double) {
        guard time.isFinite else { return }
        guard let start = generationStart, time >= start else {
            generationStart = time
            return
        }
        if time - start >= 2 * expiry {
            previous.removeAll(keepingCapacity: true)
            current.removeAll(keepingCapacity: true)
            generationStart = time
        } else if time - start >= expiry {
            swap(&previous, &current)
            current.removeAll(keepingCapacity: true)
            generationStart = start + expiry
        }
    }
}
