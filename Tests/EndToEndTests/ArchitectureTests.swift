import Foundation
import Testing

extension EndToEnd {
    /// The package's shape against docs/architecture.md: each module depends on exactly what the
    /// "imports" table there allows, its source files import nothing else, the `ModeS` library has
    /// no dependencies and no unsafe flags, and the terminal radar never reaches the SDR library,
    /// NIO or the HTTP client.
    @Suite struct ArchitectureTests {
        static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()

        /// Modules of the platform and the toolchain, which any module may import. Not the full
        /// `Foundation` (see `noModuleImportsTheFullFoundation`).
        static let systemModules: Set<String> = [
            "FoundationEssentials", "Glibc", "Darwin", "Dispatch", "Synchronization"
        ]

        /// The parts of Foundation the daemon must not link: the full `Foundation` module
        /// (swift-corelibs, on CoreFoundation), its internationalization (ICU, whose data tables
        /// alone are 34 MB of the binary), networking and XML.
        static let fullFoundationModules: Set<String> = [
            "Foundation", "CoreFoundation", "FoundationInternationalization",
            "FoundationNetworking", "FoundationXML"
        ]

        /// A target of `swift package dump-package`: its name, kind, what it depends on (project
        /// targets by name, products as "Product@package") and whether it carries unsafe flags.
        struct Target {
            var name: String
            var type: String
            var dependencies: Set<String>
            var hasUnsafeFlags: Bool
            /// The upcoming language features its Swift settings enable.
            var upcomingFeatures: Set<String> = []
        }

        /// The package as `swift package dump-package` describes it. It runs with a scratch
        /// folder of its own: the default one is locked while `swift test` runs.
        static func dumpPackage() throws -> [String: Target] {
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
                "aviator-dump-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: scratch) }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["swift", "package", "--scratch-path", scratch.path, "dump-package"]
            process.currentDirectoryURL = root
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "swift package dump-package failed")
            let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let targets = try #require(json["targets"] as? [[String: Any]])
            var result: [String: Target] = [:]
            for target in targets {
                let name = try #require(target["name"] as? String)
                var dependencies = Set<String>()
                for dependency in target["dependencies"] as? [[String: Any]] ?? [] {
                    for (kind, value) in dependency {
                        guard let parts = value as? [Any], let first = parts.first as? String else { continue }
                        if kind == "product", parts.count > 1, let package = parts[1] as? String {
                            dependencies.insert("\(first)@\(package)")
                        } else {
                            dependencies.insert(first)
                        }
                    }
                }
                let settings = target["settings"] as? [[String: Any]] ?? []
                let unsafe = settings.contains { ($0["kind"] as? [String: Any])?["unsafeFlags"] != nil }
                let features = settings.compactMap {
                    (($0["kind"] as? [String: Any])?["enableUpcomingFeature"] as? [String: Any])?["_0"] as? String
                }
                result[name] = Target(
                    name: name, type: target["type"] as? String ?? "", dependencies: dependencies,
                    hasUnsafeFlags: unsafe, upcomingFeatures: Set(features))
            }
            return result
        }

        /// The "imports" block of docs/architecture.md: `Module: Dependency, Dependency, ...` per line.
        static func documentedImports() throws -> [String: Set<String>] {
            let text = try String(contentsOf: root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
            let start = try #require(text.range(of: "```imports\n"), "docs/architecture.md has no ```imports block")
            let end = try #require(text.range(of: "```", range: start.upperBound..<text.endIndex))
            var table: [String: Set<String>] = [:]
            for line in text[start.upperBound..<end.lowerBound].split(separator: "\n") {
                let parts = line.split(separator: ":", maxSplits: 1)
                guard let name = parts.first?.trimmingCharacters(in: .whitespaces), !name.isEmpty else { continue }
                let list =
                    parts.count > 1
                    ? parts[1].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } : []
                table[name] = Set(list.filter { !$0.isEmpty })
            }
            return table
        }

        @Test func everyModuleDependsOnWhatTheArchitectureAllows() throws {
            let targets = try Self.dumpPackage()
            let documented = try Self.documentedImports()
            let modules = targets.values.filter {
                $0.type == "regular" || $0.type == "executable" || $0.type == "system"
            }
            .filter { $0.name != "TestSupport" }
            #expect(!modules.isEmpty)
            for module in modules {
                guard let allowed = documented[module.name] else {
                    Issue.record("\(module.name) is not in the imports table of docs/architecture.md")
                    continue
                }
                #expect(
                    module.dependencies == allowed,
                    "\(module.name): Package.swift says \(module.dependencies.sorted()), docs/architecture.md \(allowed.sorted())"
                )
            }
            for name in documented.keys where targets[name] == nil {
                Issue.record("docs/architecture.md lists \(name), which Package.swift does not have")
            }
        }

        @Test func sourceFilesImportOnlyTheirModulesDependencies() throws {
            let documented = try Self.documentedImports()
            let sources = Self.root.appendingPathComponent("Sources")
            var checked = 0
            for (module, allowed) in documented {
                let names = Set(allowed.map { $0.split(separator: "@").first.map(String.init) ?? $0 })
                let folder = sources.appendingPathComponent(module)
                guard let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else {
                    continue
                }
                for case let file as URL in files where file.pathExtension == "swift" {
                    let text = try String(contentsOf: file, encoding: .utf8)
                    for line in text.split(separator: "\n")
                    where line.hasPrefix("import ") || line.hasPrefix("@testable import ") {
                        let imported = String(line.split(separator: " ").last ?? "")
                        checked += 1
                        #expect(
                            Self.systemModules.contains(imported) || names.contains(imported),
                            "\(module)/\(file.lastPathComponent) imports \(imported), which \(module) may not")
                    }
                }
            }
            #expect(checked > 50)
        }

        /// The release binary links the Swift runtime statically, and with it whatever part of
        /// Foundation any source imports: `FoundationEssentials` costs 2.5 MB, the full
        /// Foundation with ICU over 40 MB (docs/install.md, the binary's size; `make size`
        /// checks the binary itself). No file under Sources/ may import it, in any form
        /// (`@preconcurrency import`, `import struct Foundation.X`, ...). There is no exception:
        /// the tests, which are not part of the binary, may use the full Foundation.
        @Test func noModuleImportsTheFullFoundation() throws {
            let sources = Self.root.appendingPathComponent("Sources")
            let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
            var checked = 0
            for case let file as URL in files where file.pathExtension == "swift" {
                let text = try String(contentsOf: file, encoding: .utf8)
                checked += 1
                for line in text.split(separator: "\n") {
                    guard let module = Self.importedModule(line) else { continue }
                    #expect(
                        !Self.fullFoundationModules.contains(module),
                        "\(file.path.dropFirst(sources.path.count + 1)) imports \(module): use FoundationEssentials, the standard library or Glibc"
                    )
                }
            }
            #expect(checked > 200)
            #expect(Self.importedModule("@preconcurrency import Foundation") == "Foundation")
            #expect(Self.importedModule("  package import struct Foundation.Date") == "Foundation")
            #expect(Self.importedModule("import FoundationEssentials") == "FoundationEssentials")
            #expect(Self.importedModule("// import Foundation") == nil)
        }

        /// Without member import visibility, a dependency that imports the full Foundation
        /// (swift-crypto does) lends its String methods to every file of every module that
        /// reaches it: a plain `text.contains("x")` then links ICU. With it, a file sees the
        /// members of the modules it imports itself, so the check above covers every call.
        @Test func everyModuleSeesOnlyTheMembersOfWhatItImports() throws {
            let targets = try Self.dumpPackage()
            let modules = targets.values.filter { $0.type == "regular" || $0.type == "executable" }
            #expect(modules.count > 10)
            for module in modules {
                #expect(
                    module.upcomingFeatures.contains("MemberImportVisibility"),
                    "\(module.name) does not enable MemberImportVisibility (Package.swift)")
            }
        }

        /// The module an `import` declaration on `line` names (`Foundation` for
        /// `@testable package import struct Foundation.Date`), nil when the line is none.
        static func importedModule(_ line: Substring) -> String? {
            let kinds: Set<Substring> = [
                "public", "package", "internal", "fileprivate", "private", "struct", "class", "enum",
                "protocol", "typealias", "func", "let", "var"
            ]
            var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })[...]
            while let first = words.first, first.hasPrefix("@") || kinds.contains(first) { words = words.dropFirst() }
            guard words.first == "import", words.count > 1 else { return nil }
            words = words.dropFirst()
            while let first = words.first, kinds.contains(first) { words = words.dropFirst() }
            return words.first.map { String($0.split(separator: ".").first ?? $0) }
        }

        @Test func modeSIsAPlainLibrary() throws {
            let targets = try Self.dumpPackage()
            let modeS = try #require(targets["ModeS"])
            // Its one dependency is the package's own utilities, which depend on nothing.
            #expect(modeS.dependencies == ["Support"])
            #expect(try #require(targets["Support"]).dependencies.isEmpty)
            #expect(!modeS.hasUnsafeFlags)
        }

        /// The modules a module reaches, itself excluded.
        static func closure(of module: String, in targets: [String: Target]) -> Set<String> {
            var reached = Set<String>()
            var queue = [module]
            while let next = queue.popLast() {
                for dependency in targets[next]?.dependencies ?? [] where reached.insert(dependency).inserted {
                    queue.append(dependency)
                }
            }
            return reached
        }

        /// Sources deliver to the pipeline's `FrameSink`, never to the tracker; the tracker
        /// merges and nothing else, so it needs no network stack.
        @Test func sourcesNeverReachTheTrackerAndTheTrackerNeverReachesNIO() throws {
            let targets = try Self.dumpPackage()
            let sources = Self.closure(of: "Receivers", in: targets)
            #expect(sources.contains("Pipeline"))
            #expect(!sources.contains("Tracking"), "Receivers reaches Tracking")
            for module in Self.closure(of: "Tracking", in: targets) where module.hasPrefix("NIO") {
                Issue.record("Tracking reaches \(module)")
            }
        }

        /// Rooms a newcomer can take in: no source file over 450 lines and no function,
        /// initializer or computed property over 60 (`scripts/lengths.py` measures, brace by
        /// brace, with comments and strings left out).
        @Test func noFileOrFunctionIsTooLong() throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", Self.root.appendingPathComponent("scripts/lengths.py").path]
            process.currentDirectoryURL = Self.root
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(text)")
        }

        /// `public` is for the one library product's API; the package's modules share
        /// through `package`.
        @Test func onlyTheModeSLibraryDeclaresPublicSymbols() throws {
            let sources = Self.root.appendingPathComponent("Sources")
            let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
            var offenders: [String] = []
            while let file = files?.nextObject() as? URL {
                guard file.pathExtension == "swift", !file.path.contains("/Sources/ModeS/") else { continue }
                let text = try String(contentsOf: file, encoding: .utf8)
                for line in text.split(separator: "\n")
                where line.trimmingCharacters(in: .whitespaces).hasPrefix("public ") {
                    offenders.append("\(file.lastPathComponent): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
            #expect(offenders.isEmpty, "\(offenders.prefix(10))")
        }

        @Test func theTerminalRadarReachesNeitherTheDongleNorTheNetworkStack() throws {
            let targets = try Self.dumpPackage()
            let reached = Self.closure(of: "RadarTerminal", in: targets)
            #expect(reached.contains("FeedProtocol"))
            for forbidden in reached
            where forbidden == "CRtlSdr" || forbidden == "Receivers"
                || forbidden.hasPrefix("NIO") || forbidden.contains("AsyncHTTPClient")
            {
                Issue.record("the terminal radar reaches \(forbidden)")
            }
        }
    }
}
