/// Why a payload received from the network was dropped. Every payload is hostile until it
/// has been read whole: one wrong byte drops it.
package enum NetworkPayloadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Larger than the most a well-behaved receiver sends (its size and the limit).
    case oversized(Int, limit: Int)
    /// Not what the topic carries (why).
    case malformed(String)

    /// One sentence.
    package var description: String {
        switch self {
        case .oversized(let size, let limit): "a payload of \(size) bytes, over the limit of \(limit)"
        case .malformed(let why): why
        }
    }
}
