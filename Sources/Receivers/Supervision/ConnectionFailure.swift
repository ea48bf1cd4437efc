import FoundationEssentials
import NIOCore
import NIOPosix

/// What went wrong with a connection, in the few words a log line needs ("connection
/// refused", "no address for broker.lan", "no answer within 5 s"), rather than the nested
/// description NIO gives of every address it tried.
enum ConnectionFailure {
    /// The reason `error` gives, as a short phrase.
    static func describe(_ error: any Error) -> String {
        switch error {
        case let failure as NIOConnectionError:
            if let first = failure.connectionErrors.first { return describe(first.error) }
            if failure.dnsAError != nil || failure.dnsAAAAError != nil { return "no address for \(failure.host)" }
            return "cannot connect to \(failure.host)"
        case let error as IOError:
            return String(cString: strerror(error.errnoCode)).lowercasedFirst
        case ChannelError.connectTimeout(let limit):
            return "no answer within \(limit.nanoseconds / 1_000_000_000) s"
        default:
            return "\(error)"
        }
    }
}

extension String {
    /// The text with its first letter in lower case ("Connection refused" → "connection
    /// refused"), to sit inside a sentence.
    fileprivate var lowercasedFirst: String { prefix(1).lowercased() + dropFirst() }
}
