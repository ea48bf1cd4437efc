/// Why an output could not start: each case describes itself in one line for stderr.
package enum OutputError: Error, CustomStringConvertible, Equatable {
    /// Another program (or another output) already listens on the port.
    case addressInUse(output: String, host: String, port: Int)
    /// The listening socket could not be set up for another reason (unknown address...).
    case cannotListen(output: String, host: String, port: Int, reason: String)
    /// The JSON directory is missing, not a directory or not writable.
    case unusableDirectory(path: String, reason: String)

    /// One line saying what went wrong and where.
    package var description: String {
        switch self {
        case .addressInUse(let output, let host, let port):
            return
                "cannot listen on \(Self.endpoint(host, port)) for the \(output) output: the address is already in use"
        case .cannotListen(let output, let host, let port, let reason):
            return "cannot listen on \(Self.endpoint(host, port)) for the \(output) output: \(reason)"
        case .unusableDirectory(let path, let reason):
            return "cannot write JSON to \(path): \(reason)"
        }
    }

    private static func endpoint(_ host: String, _ port: Int) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
