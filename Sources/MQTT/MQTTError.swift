/// Something the MQTT client could not do, as one sentence for the log or the command line.
package struct MQTTError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The sentence.
    package var description: String

    /// An error with its sentence.
    package init(_ description: String) { self.description = description }
}
