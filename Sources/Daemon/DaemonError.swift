/// Why the daemon could not start or stopped: one line for the log and the exit status
/// (a port already in use, no dongle with `--no-fallback`, an unreadable recording).
package struct DaemonError: Error, CustomStringConvertible {
    /// The line.
    package let description: String

    /// An error saying `description`.
    package init(_ description: String) {
        self.description = description
    }
}
