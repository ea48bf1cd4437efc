import FeedProtocol
import Logging
import SkyProjection

/// The magnetic declination the feed gives each client with its greeting and every view
/// acknowledgement: the World Magnetic Model's at the client's observer (the receiver until
/// the client's view names an observer of its own), at the wall-clock time.
///
/// Phones' compasses read magnetic headings and the feed's angles are from true north; with
/// this a client turns one into the other (true = magnetic + declination). Past the model's
/// years it still answers, carrying the secular variation on, and says so in the log once:
/// the error grows slowly (about 0.1° a year), and a radar a little off beats none, but the
/// person running the daemon should know a newer model is due.
struct FeedDeclination {
    /// The model: WMM2025, unless a test gives another.
    let model: MagneticModel
    /// Where the one warning about the model's years goes.
    let logger: Logger
    /// Whether the warning has been logged.
    private(set) var warned = false

    /// A declination source of `model`, warning to `logger`.
    init(model: MagneticModel = .wmm2025, logger: Logger) {
        self.model = model
        self.logger = logger
    }

    /// The declination at `observer` at `secondsSince1970`, degrees east positive; nil when
    /// there is no observer. The first time the date is outside the model's years, a warning
    /// is logged (once for the daemon's life: the date only moves further out).
    mutating func degrees(at observer: Observer?, secondsSince1970: Double) -> Double? {
        guard let observer else { return nil }
        let year = DecimalYear.from(secondsSince1970: secondsSince1970)
        if !warned, !model.isValid(decimalYear: year) {
            warned = true
            logger.warning(
                "feed: the date is outside \(model.name)'s years (\(model.epoch) to \(model.validUntil)); the magnetic declination sent to clients is extrapolated and less accurate: a newer aviator-adsb has the newer model"
            )
        }
        return model.declination(
            latitude: observer.latitude, longitude: observer.longitude, altitudeMetres: observer.altitudeMetres,
            decimalYear: year)
    }
}
