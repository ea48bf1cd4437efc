import Foundation
import TestSupport
import Testing

extension EndToEnd {
    /// `make install`, `make uninstall` and `make deb` with the binary these tests run (so no
    /// release build is needed): the files and their modes, the unit as systemd reads it, the
    /// manual page as man renders it, the package as dpkg reads it.
    @Suite(.tags(.slow)) struct InstallTests {
        /// The files `make install` puts under DESTDIR with the default PREFIX, and their modes.
        static let installed: [String: Int] = [
            "usr/local/bin/aviator-adsb": 0o755,
            "usr/local/share/man/man1/aviator-adsb.1.gz": 0o644,
            "usr/local/share/aviator-adsb/identity-store.gz": 0o644,
            "usr/local/lib/systemd/system/aviator-adsb.service": 0o644,
            "etc/default/aviator-adsb": 0o644
        ]

        /// Runs `make TARGET` in the project with the tests' binary as BINARY plus `variables`;
        /// the caller's make, if any, passes nothing down (its job server is not ours).
        static func make(_ target: String, _ variables: [String: String] = [:]) throws -> BinaryRunner.Result {
            let assignments = (["BINARY": BinaryRunner.binary.path].merging(variables) { $1 })
                .sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            return try run(
                "make", ["-C", BinaryRunner.projectRoot.path, target] + assignments,
                environment: ["MAKEFLAGS": "", "MAKELEVEL": "", "MFLAGS": ""])
        }

        /// Runs a program found on the PATH.
        static func run(_ program: String, _ arguments: [String], environment: [String: String] = [:]) throws
            -> BinaryRunner.Result
        {
            try BinaryRunner.run(
                [program] + arguments, environment: environment, executable: URL(fileURLWithPath: "/usr/bin/env"))
        }

        /// Whether `program` is on the PATH; when not, a failure under CI (CI=true), which
        /// `make deps` equips, and a skip with the reason elsewhere.
        static func available(_ program: String, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
            let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
            if path.split(separator: ":").contains(where: {
                FileManager.default.isExecutableFile(atPath: "\($0)/\(program)")
            }) {
                return true
            }
            SharedData.missing("\(program) is missing: run `make deps` to install it", sourceLocation: sourceLocation)
            return false
        }

        /// A fresh folder, to be removed by the caller.
        static func folder(_ name: String) throws -> URL {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent(
                "\(name)-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            return url
        }

        /// The regular files under `root`, by path relative to it, with their permission bits.
        static func files(under root: URL) throws -> [String: Int] {
            var found: [String: Int] = [:]
            let enumerator = try #require(FileManager.default.enumerator(atPath: root.path))
            while let relative = enumerator.nextObject() as? String {
                let attributes = try FileManager.default.attributesOfItem(atPath: root.path + "/" + relative)
                if attributes[.type] as? FileAttributeType == .typeRegular {
                    found[relative] = try #require(attributes[.posixPermissions] as? Int)
                }
            }
            return found
        }

        @Test func installPutsEachFileInPlaceWithItsModeAndStripsTheBinary() throws {
            let root = try Self.folder("install")
            defer { try? FileManager.default.removeItem(at: root) }
            let made = try Self.make("install", ["DESTDIR": root.path])
            #expect(made.status == 0, "\(made.stdout)\(made.stderr)")
            #expect(try Self.files(under: root) == Self.installed)

            // The binary runs, and its symbol table is gone.
            let binary = root.appendingPathComponent("usr/local/bin/aviator-adsb")
            let version = try BinaryRunner.run(["--version"], executable: binary)
            let expected = try BinaryRunner.run(["--version"])
            #expect(version.status == 0 && version.stdout == expected.stdout, "\(version.stderr)")
            let sections = try Self.run("readelf", ["--section-headers", "--wide", binary.path])
            #expect(
                sections.status == 0 && sections.stdout.contains(".text") && !sections.stdout.contains(".symtab"),
                "\(sections.stdout)")

            let unit = try String(
                contentsOf: root.appendingPathComponent("usr/local/lib/systemd/system/aviator-adsb.service"),
                encoding: .utf8)
            #expect(unit.contains("\nExecStart=/usr/local/bin/aviator-adsb run "))
            #expect(unit.contains("\nEnvironmentFile=-/etc/default/aviator-adsb\n"))
            #expect(unit.firstMatch(of: /@[A-Z]+@/) == nil, "a placeholder is left: \(unit)")
        }

        @Test func uninstallRemovesWhatInstallPutButKeepsEditedSettings() throws {
            let root = try Self.folder("uninstall")
            defer { try? FileManager.default.removeItem(at: root) }
            #expect(try Self.make("install", ["DESTDIR": root.path]).status == 0)
            let settings = root.appendingPathComponent("etc/default/aviator-adsb")
            let edited = try String(contentsOf: settings, encoding: .utf8) + "EXTRA_OPTIONS=\"--log-level notice\"\n"
            try edited.write(to: settings, atomically: true, encoding: .utf8)

            // A second install leaves the edited settings alone.
            let again = try Self.make("install", ["DESTDIR": root.path])
            #expect(again.status == 0 && again.stdout.contains("kept \(settings.path) as it is"), "\(again.stdout)")
            #expect(try String(contentsOf: settings, encoding: .utf8) == edited)

            let removed = try Self.make("uninstall", ["DESTDIR": root.path])
            #expect(removed.status == 0, "\(removed.stderr)")
            #expect(try Set(Self.files(under: root).keys) == ["etc/default/aviator-adsb"])

            // Settings as installed go with the rest.
            try FileManager.default.removeItem(at: settings)
            #expect(try Self.make("install", ["DESTDIR": root.path]).status == 0)
            #expect(try Self.make("uninstall", ["DESTDIR": root.path]).status == 0)
            #expect(try Self.files(under: root).isEmpty)
        }

        @Test(.requires(.program("systemd-analyze"))) func theInstalledUnitPassesSystemdAnalyzeVerify() throws {
            guard Self.available("systemd-analyze") else { return }
            let root = try Self.folder("unit")
            defer { try? FileManager.default.removeItem(at: root) }
            // Installed under a PREFIX of its own rather than DESTDIR, so that the unit's
            // ExecStart names a binary that is there, as systemd-analyze checks; no user is made.
            let made = try Self.make(
                "install", ["PREFIX": root.path + "/usr", "SYSCONFDIR": root.path + "/etc", "CREATE_USER": ""])
            #expect(made.status == 0, "\(made.stdout)\(made.stderr)")
            let unit = root.appendingPathComponent("usr/lib/systemd/system/aviator-adsb.service")
            #expect(
                try String(contentsOf: unit, encoding: .utf8).contains(
                    "\nEnvironmentFile=-\(root.path)/etc/default/aviator-adsb\n"))
            // MANPATH lets the check of Documentation=man:aviator-adsb(1) find the installed page.
            // It exits 0 on unknown keys and bad values too, but names the unit when it warns.
            let verified = try Self.run(
                "systemd-analyze", ["verify", unit.path],
                environment: ["MANPATH": root.path + "/usr/share/man", "SYSTEMD_LOG_COLOR": "0"])
            #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
            #expect(!verified.stderr.contains("aviator-adsb"), "\(verified.stderr)")
        }

        @Test(.requires(.program("man"))) func theManualPageRendersEveryVisibleOption() throws {
            guard Self.available("man") else { return }
            let root = try Self.folder("manual")
            defer { try? FileManager.default.removeItem(at: root) }
            #expect(try Self.make("install", ["DESTDIR": root.path]).status == 0)
            let page = root.appendingPathComponent("usr/local/share/man/man1/aviator-adsb.1.gz")
            // Plain ASCII (LC_ALL=C), wide enough that no option name is broken across lines;
            // groff's warnings (--warnings) go to standard error.
            let rendered = try Self.run(
                "man", ["--warnings", "-l", page.path],
                environment: ["LC_ALL": "C", "MANWIDTH": "200", "MANPAGER": "cat", "PAGER": "cat"])
            #expect(rendered.status == 0 && rendered.stderr.isEmpty, "\(rendered.stderr)")
            let text = rendered.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(text.contains("NAME aviator-adsb - Receive Mode S / ADS-B"), "\(text.prefix(400))")
            #expect(text.contains("Exit status: 0 when"), "\(text.prefix(2000))")

            // Every option each command's --help shows is on the page, and no hidden one.
            for command in ["run", "demod", "decode", "radar", "simulate", "bench"] {
                #expect(text.contains("aviator-adsb \(command)"), "no section for \(command)")
                let help = try BinaryRunner.run([command, "--help"])
                for option in Set(help.stdout.matches(of: /--[a-z][a-z0-9-]+/).map { String($0.output) }) {
                    #expect(text.contains(option), "\(command): \(option) is not on the page")
                }
            }
            #expect(!text.contains("--gate"), "a hidden option of demod is on the page")
        }

        @Test(.requires(.program("dpkg-deb"), .program("dpkg-shlibdeps")))
        func debCarriesTheControlFieldsFilesAndScripts() throws {
            guard Self.available("dpkg-deb"), Self.available("dpkg-shlibdeps") else { return }
            let output = try Self.folder("deb")
            defer { try? FileManager.default.removeItem(at: output) }
            let made = try Self.make("deb", ["DEB_DIR": output.path, "DEB_COMPRESSION": "none"])
            #expect(made.status == 0, "\(made.stdout)\(made.stderr)")
            let version =
                try BinaryRunner.run(["--version"]).stdout.split(separator: " ").last.map {
                    $0.trimmingCharacters(in: .whitespacesAndNewlines)
                } ?? ""
            let arch = try Self.run("dpkg", ["--print-architecture"]).stdout.trimmingCharacters(
                in: .whitespacesAndNewlines)
            let package = output.appendingPathComponent("aviator-adsb_\(version)_\(arch).deb").path
            #expect(made.stdout.contains(package), "\(made.stdout)")

            let info = try Self.run("dpkg-deb", ["--info", package])
            #expect(info.status == 0, "\(info.stderr)")
            #expect(info.stdout.contains(" Package: aviator-adsb\n"))
            #expect(info.stdout.contains(" Version: \(version)\n"))
            #expect(info.stdout.contains(" Architecture: \(arch)\n"))
            let depends = try #require(info.stdout.split(separator: "\n").first { $0.hasPrefix(" Depends: ") })
            for dependency in ["librtlsdr0", "libc6", "passwd"] {
                #expect(depends.contains(dependency), "\(depends)")
            }
            for script in ["postinst", "prerm", "postrm", "conffiles", "md5sums"] {
                #expect(info.stdout.contains(" \(script) "), "\(script) is missing: \(info.stdout)")
            }

            let contents = try Self.run("dpkg-deb", ["--contents", package])
            #expect(contents.status == 0, "\(contents.stderr)")
            let entries = contents.stdout.split(separator: "\n").map { line in
                // permissions owner/group size date time path
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                return (mode: String(fields[0]), owner: String(fields[1]), path: String(fields[fields.count - 1]))
            }
            let files = entries.filter { $0.mode.hasPrefix("-") }
            #expect(
                Set(files.map(\.path)) == [
                    "./usr/bin/aviator-adsb", "./usr/share/man/man1/aviator-adsb.1.gz",
                    "./usr/lib/systemd/system/aviator-adsb.service", "./etc/default/aviator-adsb",
                    "./usr/share/aviator-adsb/identity-store.gz"
                ], "\(contents.stdout)")
            #expect(entries.allSatisfy { $0.owner == "root/root" }, "\(contents.stdout)")
            #expect(files.first { $0.path == "./usr/bin/aviator-adsb" }?.mode == "-rwxr-xr-x")

            // The packaged unit starts the packaged binary; the settings file is a conffile.
            let unpacked = output.appendingPathComponent("unpacked")
            #expect(try Self.run("dpkg-deb", ["--raw-extract", package, unpacked.path]).status == 0)
            let unit = try String(
                contentsOf: unpacked.appendingPathComponent("usr/lib/systemd/system/aviator-adsb.service"),
                encoding: .utf8)
            #expect(unit.contains("\nExecStart=/usr/bin/aviator-adsb run "))
            let listed = try String(contentsOf: unpacked.appendingPathComponent("DEBIAN/conffiles"), encoding: .utf8)
            #expect(listed == "/etc/default/aviator-adsb\n")
        }
    }
}
