#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the daemon keeps what must outlive a restart (its self-signed certificate, the gain
/// the adaptive gain settled on): the first of
/// 1. `$STATE_DIRECTORY`, which systemd sets for a unit with `StateDirectory=` (the first
///    path when it lists several);
/// 2. `$XDG_STATE_HOME/aviator-adsb`, where the XDG base directories put state;
/// 3. `~/.local/state/aviator-adsb`, the XDG default, with the home directory from `$HOME`
///    or, for a daemon started without one, from the password database.
///
/// Relative paths are ignored, as the XDG specification says. An option elsewhere
/// overrides the result.
package enum StateDirectory {
    /// The name of the daemon's folder under the XDG state home.
    package static let folderName = "aviator-adsb"

    /// The state directory for `environment`; nil when no home directory is known either.
    package static func resolve(
        environment: [String: String],
        passwordHome: @autoclosure () -> String? = passwordDatabaseHome()
    ) -> String? {
        if let systemd = environment["STATE_DIRECTORY"]?.split(separator: ":").first.map(String.init),
            systemd.hasPrefix("/")
        {
            return systemd
        }
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") {
            return join(xdg, folderName)
        }
        let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? passwordHome()
        guard let home, home.hasPrefix("/") else { return nil }
        return join(join(home, ".local/state"), folderName)
    }

    /// The current user's home directory from the password database.
    package static func passwordDatabaseHome() -> String? {
        guard let entry = getpwuid(geteuid()), let directory = entry.pointee.pw_dir else { return nil }
        let home = String(cString: directory)
        return home.isEmpty ? nil : home
    }

    private static func join(_ base: String, _ name: String) -> String {
        base.hasSuffix("/") ? base + name : base + "/" + name
    }
}
