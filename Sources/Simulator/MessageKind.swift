/// The kinds of message a simulated transponder sends, each on its own schedule.
package enum MessageKind: Sendable, Equatable {
    /// DF17 TC 9–18 (or 20–22 for GNSS-only aircraft), even or odd CPR.
    case airbornePosition(odd: Bool)
    /// DF17 TC 5–8, even or odd CPR.
    case surfacePosition(odd: Bool)
    /// DF17 TC 19.
    case velocity
    /// DF17 TC 1–4.
    case identification
    /// DF17 TC 28.
    case aircraftStatus
    /// DF17 TC 29.
    case targetState
    /// DF17 TC 31.
    case operationalStatus
    /// DF11 with the given interrogator code (0: acquisition squitter).
    case allCall(interrogator: UInt32)
    /// DF4 altitude reply.
    case altitudeReply
    /// DF5 identity reply.
    case identityReply
    /// DF20 with Comm-B register 2,0 / 4,0 / 5,0 (`register` 0x20, 0x40, 0x50).
    case commBAltitude(register: Int)
    /// DF21 with a Comm-B register.
    case commBIdentity(register: Int)
}
