/// A user name and password for the broker, taken from the environment so that they never
/// appear on a command line (which every user of the machine can read in `ps`).
package struct MQTTCredentials: Sendable, Equatable {
    /// The variable holding the user name.
    package static let usernameVariable = "AVIATOR_MQTT_USERNAME"
    /// The variable holding the password.
    package static let passwordVariable = "AVIATOR_MQTT_PASSWORD"

    /// User name.
    package var username: String
    /// Password, nil to send none.
    package var password: String?

    /// Credentials from their parts.
    package init(username: String, password: String?) {
        self.username = username
        self.password = password
    }

    /// The credentials `environment` holds: nil when no user name is set. A password without
    /// a user name is an error (MQTT cannot send one alone).
    package static func from(environment: [String: String]) throws(MQTTError) -> MQTTCredentials? {
        let username = environment[usernameVariable].flatMap { $0.isEmpty ? nil : $0 }
        let password = environment[passwordVariable].flatMap { $0.isEmpty ? nil : $0 }
        guard let username else {
            if password != nil { throw MQTTError("\(passwordVariable) is set but \(usernameVariable) is not") }
            return nil
        }
        return MQTTCredentials(username: username, password: password)
    }
}
