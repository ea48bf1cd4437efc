/// One pair of Gauss coefficients of a spherical-harmonic model of the Earth's main magnetic
/// field, as a model's coefficient file lists them: degree `n`, order `m`, the main-field
/// values at the model's epoch and their secular variation.
///
/// The coefficients are Schmidt semi-normalised (the geomagnetic convention), in nanotesla;
/// the secular variation is in nanotesla per year and is applied linearly from the epoch,
/// which is how the World Magnetic Model defines its field between epochs.
package struct GaussCoefficient: Sendable, Equatable {
    /// Degree, 1 to the model's maximum.
    package var n: Int
    /// Order, 0 to `n`.
    package var m: Int
    /// g(n, m) at the epoch, nT: the cosine term.
    package var g: Double
    /// h(n, m) at the epoch, nT: the sine term (always 0 for m = 0).
    package var h: Double
    /// Yearly change of `g`, nT/year.
    package var gPerYear: Double
    /// Yearly change of `h`, nT/year.
    package var hPerYear: Double

    /// A coefficient pair as a coefficient file writes it.
    package init(_ n: Int, _ m: Int, g: Double, h: Double, gPerYear: Double, hPerYear: Double) {
        self.n = n
        self.m = m
        self.g = g
        self.h = h
        self.gPerYear = gPerYear
        self.hPerYear = hPerYear
    }

    /// `g` and `h` `years` after the epoch (negative before it): the main field moved on by
    /// the secular variation. The model defines no other time dependence, so a date outside
    /// its validity is extrapolated the same way, with growing error.
    package func at(yearsSinceEpoch years: Double) -> (g: Double, h: Double) {
        (g + gPerYear * years, h + hPerYear * years)
    }
}
