import Identity

/// Why a route lookup failed: a kind, which the counters and the log throttle go by, and one
/// line of text for the log.
///
/// The text never repeats what the service sent (a hostile body could write anything into
/// the log) and never names more than the callsign asked for.
package struct RouteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, in classes that call for the same reaction.
    package enum Kind: String, Sendable, CaseIterable {
        /// No answer within the time limit.
        case timeout
        /// The connection could not be made or broke.
        case connection
        /// An HTTP status other than 200 and 404 (a redirect among them: none is followed).
        case status
        /// A body that is not a route answer: not JSON, wrong types, bad codes.
        case malformed
        /// A body over the size limit.
        case tooLarge
        /// The route service's URL cannot be used.
        case configuration
    }

    /// The class of failure.
    package let kind: Kind
    /// One line saying what happened.
    package let message: String

    /// An error of `kind`; line breaks in `message` are replaced so it stays one line.
    package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = String(message.map { $0.isNewline ? " " : $0 })
    }

    /// The message.
    package var description: String { message }
}
