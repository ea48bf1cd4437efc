import FeedProtocol

/// Why the feed server cannot start; each description is one line for the daemon's stderr.
package enum FeedError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The directory that should hold the socket does not exist.
    case missingDirectory(path: String, directory: String)
    /// Another process is accepting connections on the socket.
    case alreadyServing(path: String)
    /// Something other than a socket is in the way.
    case notASocket(path: String)
    /// The path does not fit in a Unix socket address.
    case pathTooLong(path: String, limit: Int)
    /// The per-user socket directory is not the user's own, or cannot be made.
    case unsafeDirectory(PrivateDirectory.Problem)
    /// The options are out of range.
    case invalidConfiguration(String)
    /// A system call failed.
    case system(operation: String, path: String, message: String)

    /// One line saying what is wrong and with which path.
    package var description: String {
        switch self {
        case .missingDirectory(let path, let directory):
            "cannot create feed socket \(path): directory \(directory) does not exist"
        case .alreadyServing(let path):
            "another aviator-adsb is already serving \(path)"
        case .notASocket(let path):
            "cannot create feed socket \(path): a file that is not a socket is in the way"
        case .pathTooLong(let path, let limit):
            "feed socket path \(path) is too long (at most \(limit) bytes)"
        case .unsafeDirectory(let problem):
            problem.description
        case .invalidConfiguration(let message):
            message
        case .system(let operation, let path, let message):
            "feed socket \(path): \(operation) failed: \(message)"
        }
    }
}
