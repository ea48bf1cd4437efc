import Foundation
import Testing

/// Something a test needs from outside the package: a file of the shared data beside the
/// project, a program, a Python module of the test environment.
package struct Requirement: Sendable {
    /// What is needed, as the skip says it ("chromium", "../shared/iq/x.cu8").
    package let name: String
    /// How to get it ("make deps installs it").
    package let remedy: String
    /// Whether it is there now.
    package let isMet: @Sendable () -> Bool

    /// A requirement named `name`, met when `isMet` says so.
    package init(_ name: String, remedy: String, isMet: @escaping @Sendable () -> Bool) {
        self.name = name
        self.remedy = remedy
        self.isMet = isMet
    }

    /// A file under ../shared.
    package static func shared(_ relativePath: String) -> Requirement {
        Requirement("../shared/\(relativePath)", remedy: "the shared data beside the project") {
            FileManager.default.fileExists(atPath: SharedData.root.appendingPathComponent(relativePath).path)
        }
    }

    /// A program on the PATH (or at an absolute path).
    package static func program(_ name: String, remedy: String = "make deps installs it") -> Requirement {
        Requirement(name, remedy: remedy) { Self.find(program: name) != nil }
    }

    /// Where `program` is: itself when it is a path to an executable, else the first match
    /// on the PATH; nil when there is none.
    package static func find(program: String) -> String? {
        if program.contains("/") { return FileManager.default.isExecutableFile(atPath: program) ? program : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(program)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// A Python module the project's test environment (`.venv`, which `make test` sets up)
    /// can import.
    package static func venvModule(_ module: String) -> Requirement {
        Requirement("Python's \(module) in .venv", remedy: "make test installs it") {
            Self.python(projectPython(), imports: module)
        }
    }

    /// The project's `.venv/bin/python`.
    static func projectPython() -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".venv/bin/python")
    }

    /// Whether `python` runs and imports `module`.
    static func python(_ python: URL, imports module: String) -> Bool {
        let check = Process()
        check.executableURL = python
        check.arguments = ["-c", "import \(module)"]
        check.standardError = FileHandle.nullDevice
        guard (try? check.run()) != nil else { return false }
        check.waitUntilExit()
        return check.terminationStatus == 0
    }

    /// Whether this run is CI's (CI=true), which must have everything.
    package static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only when every requirement is met, and otherwise reports it skipped
    /// with what is missing, never as passed. Under CI (CI=true) the test always runs, so that
    /// a missing requirement fails it loudly where it is used.
    package static func requires(_ requirements: Requirement..., sourceLocation: SourceLocation = #_sourceLocation)
        -> Self
    {
        let needs = requirements.map { "\($0.name) (\($0.remedy))" }.joined(separator: ", ")
        return .enabled("needs \(needs)", sourceLocation: sourceLocation) {
            Requirement.isCI || requirements.allSatisfy { $0.isMet() }
        }
    }
}
