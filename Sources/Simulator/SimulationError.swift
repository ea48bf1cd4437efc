/// Why a simulation could not be written.
package enum SimulationError: Error, CustomStringConvertible, Equatable {
    /// An output file could not be created or written.
    case cannotWrite(path: String, reason: String)
    /// A setting is out of range.
    case invalidSetting(String)

    /// One line for the user.
    package var description: String {
        switch self {
        case .cannotWrite(let path, let reason): return "cannot write \(path): \(reason)"
        case .invalidSetting(let message): return message
        }
    }
}
