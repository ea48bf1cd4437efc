#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A spherical-harmonic model of the Earth's main magnetic field, such as the World Magnetic
/// Model (`MagneticModel.wmm2025`): Gauss coefficients at an epoch, their secular variation,
/// and the years the model is meant for.
///
/// Why the radar needs it: the feed's azimuths are from true north, but a phone's compass
/// reads from magnetic north. The two differ by the declination, up to 20° or more in much of
/// the world, which would turn the whole radar by as much. The feed gives each client the
/// declination at its observer, and the app adds it to the compass heading.
///
/// The model is a pure function of place and date: time is passed in (a decimal year), never
/// read, so a test or a replay gets the same answer at any wall-clock time.
package struct MagneticModel: Sendable {
    /// The model's name, e.g. "WMM2025".
    package let name: String
    /// The epoch of the coefficients, decimal year.
    package let epoch: Double
    /// The end of the years the model is meant for, decimal year (exclusive); it is valid from
    /// `epoch` up to this.
    package let validUntil: Double
    /// The coefficients, any order.
    package let coefficients: [GaussCoefficient]
    /// The highest degree among the coefficients.
    package let maxDegree: Int

    /// The radius of the sphere the expansion is referred to, km: 6371.2, the "geomagnetic
    /// reference radius" every IGRF and WMM model is published for.
    package static let referenceRadiusKm = 6371.2

    /// A model from its coefficients.
    package init(name: String, epoch: Double, validUntil: Double, coefficients: [GaussCoefficient]) {
        self.name = name
        self.epoch = epoch
        self.validUntil = validUntil
        self.coefficients = coefficients
        maxDegree = coefficients.map(\.n).max() ?? 0
    }

    /// Whether `decimalYear` is within the years the model is meant for. Outside them the
    /// model still answers, by carrying the secular variation on in a straight line, which
    /// drifts from the real field by roughly a tenth of a degree of declination a year.
    package func isValid(decimalYear: Double) -> Bool {
        decimalYear >= epoch && decimalYear < validUntil
    }

    /// The declination in degrees, east positive, at geodetic `latitude` and `longitude`
    /// (degrees, WGS-84), `altitudeMetres` above the ellipsoid, at `decimalYear`
    /// (`DecimalYear`). True heading = magnetic heading + declination.
    ///
    /// At a geographic pole every direction is south (or north), so declination is not
    /// defined there; this gives the limit as the pole is approached along `longitude`, a
    /// finite number that changes with the longitude given. Finite inputs give a finite answer.
    package func declination(
        latitude: Double, longitude: Double, altitudeMetres: Double, decimalYear: Double
    ) -> Double {
        field(latitude: latitude, longitude: longitude, altitudeMetres: altitudeMetres, decimalYear: decimalYear)
            .declinationDeg
    }

    /// The main field at geodetic `latitude`, `longitude` (degrees), `altitudeMetres` above
    /// the WGS-84 ellipsoid, at `decimalYear`, in the local geodetic north-east-down frame.
    package func field(latitude: Double, longitude: Double, altitudeMetres: Double, decimalYear: Double)
        -> MagneticField
    {
        let position = GeocentricPosition(latitude: latitude, longitude: longitude, heightMetres: altitudeMetres)
        let spherical = sphericalField(at: position, yearsSinceEpoch: decimalYear - epoch)
        // The expansion gives north along the geocentric meridian and down towards the centre;
        // the compass's frame is the ellipsoid's, tilted from it by the difference of the two
        // latitudes about the east axis (east is the same in both).
        let tilt = position.latitudeOffset
        return MagneticField(
            north: spherical.north * cos(tilt) - spherical.down * sin(tilt),
            east: spherical.east,
            down: spherical.north * sin(tilt) + spherical.down * cos(tilt))
    }

    /// The field in the geocentric frame at `position`: minus the gradient of the potential
    /// V = a Σₙ (a/r)ⁿ⁺¹ Σₘ (g cos mλ + h sin mλ) P(n, m)(cos θ), which gives
    ///   north = −(1/r) ∂V/∂φ = Σ (a/r)ⁿ⁺² (g cos mλ + h sin mλ) dP/dθ  (φ = 90° − θ),
    ///   east  = −(1/(r sin θ)) ∂V/∂λ = Σ (a/r)ⁿ⁺² m (g sin mλ − h cos mλ) P / sin θ,
    ///   down  = ∂V/∂r = −Σ (n+1) (a/r)ⁿ⁺² (g cos mλ + h sin mλ) P.
    /// P / sin θ comes from `SchmidtLegendre` without a division, so the east component is
    /// finite at the poles.
    private func sphericalField(at position: GeocentricPosition, yearsSinceEpoch years: Double) -> MagneticField {
        let legendre = SchmidtLegendre(
            maxDegree: maxDegree, sinTheta: position.cosLatitude, cosTheta: position.sinLatitude)
        let ratio = Self.referenceRadiusKm / position.radiusKm
        var north = 0.0
        var east = 0.0
        var down = 0.0
        for coefficient in coefficients {
            let (g, h) = coefficient.at(yearsSinceEpoch: years)
            let n = coefficient.n
            let m = Double(coefficient.m)
            let i = SchmidtLegendre.index(n, coefficient.m)
            let scale = pow(ratio, Double(n + 2))
            let cosM = cos(m * position.longitude)
            let sinM = sin(m * position.longitude)
            let inPhase = g * cosM + h * sinM
            north += scale * inPhase * legendre.dpByTheta[i]
            east += scale * m * (g * sinM - h * cosM) * legendre.pBySinTheta[i]
            down -= scale * Double(n + 1) * inPhase * legendre.p[i]
        }
        return MagneticField(north: north, east: east, down: down)
    }
}
