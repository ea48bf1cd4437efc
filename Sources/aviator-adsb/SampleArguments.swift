import ArgumentParser
import IQ
import ModeSDemod

/// `--sample-rate` as every command reads it (`run`, `demod`, `bench`, `simulate`), so the
/// accepted spellings and the error for an unsupported rate are the same everywhere.
extension SampleRate: ExpressibleByArgument {
    /// Parses `2.4M`, `2400000`, `2.4` and the same for 2.0 (see `init?(parsing:)`); nil for
    /// anything else, which ArgumentParser reports as a usage error.
    package init?(argument: String) {
        self.init(parsing: argument)
    }

    /// The spellings offered in `--help`, in the error for a rate it rejects and by shell
    /// completion: the way rates are usually written rather than the raw hertz.
    package static var allValueStrings: [String] { ["2.4M", "2.0M"] }

    /// None: the option's help already says what each rate is.
    package static var allValueDescriptions: [String: String] { [:] }
}

/// `--format` as every command reads it (`run`, `demod`, `bench`, `simulate`), so the names
/// and aliases accepted are the same everywhere.
extension SampleFormat: ExpressibleByArgument {
    /// Parses `cu8`, `cs16` (or `sc16`), `cf32` (or `fc32`) in any case (see `init?(name:)`);
    /// nil for anything else, which ArgumentParser reports as a usage error.
    package init?(argument: String) {
        self.init(name: argument)
    }
}
