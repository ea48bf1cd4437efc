import ServiceLifecycle

/// A service under a plain name. The `ServiceGroup` logs each service it starts and stops
/// as the service describes itself, and a type's default description lists its stored
/// properties, among them the receiver's exact position; this wrapper describes the service by
/// its name only, so no log level ever shows where the receiver is.
package struct NamedService: Service, CustomStringConvertible {
    /// What the logs call the service.
    package let description: String
    package let service: any Service

    /// `service`, logged as `name`.
    package init(_ name: String, _ service: any Service) {
        description = name
        self.service = service
    }

    package func run() async throws {
        try await service.run()
    }
}
