/// What the demodulator has learnt of the aircraft it hears, from the frames it accepted:
/// what weakly checked replies are weighed against.
///
/// An address/parity reply names its aircraft only through its parity, a repair or an
/// interrogator code is not checked by any parity: such a reply is believed when it fits
/// what its aircraft (and the stations interrogating it) already showed, and refused when
/// it names no aircraft heard or contradicts what that aircraft reported. The
/// `FrameValidator`'s own address filter, which expires, holds the addresses confirmed
/// recently.
struct HeardAircraft {
    /// Addresses of the DF11/17/18 frames found, which address/parity replies may name.
    var seen = SeenAddresses()
    /// Parities one wrong bit away from a seen address.
    var near = NearAddresses()
    /// What each aircraft last reported in its extended squitters (the repair-squitter
    /// agreement and the altitude and identity agreement).
    var squitterReports = SquitterReports()
    /// Interrogator codes confirmed by more than one aircraft.
    var interrogators = InterrogatorCodes()
    /// The interrogator codes each aircraft has answered with (the all-call test and the
    /// unambiguous-code test).
    var addressCodes = AddressCodes()
    /// The last slices that read an all-call reply as code 0 (the code-0 reading test).
    var codeZeroReadings = CodeZeroReadings()
}
