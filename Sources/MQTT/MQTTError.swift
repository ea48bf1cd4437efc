/// Something the MQTT client could not do, as one sentence for the log or the command line.
public struct MQTTError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The sentence.
    public var description: String

    /// An error with its sentence.
    public init(_ description: String) { self.description = description }
}
