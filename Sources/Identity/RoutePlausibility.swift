import ModeS

/// Whether a route can be the one an aircraft flies, seen from where it is: route data goes
/// stale and callsigns are reused, and a wrong route shown with confidence is worse than none.
///
/// The rule: an aircraft at P fits a leg from A to B when the way from A to B through P is at
/// most `slackFraction` of the leg plus `slackKm` longer than the great circle from A to B:
/// d(A, P) + d(P, B) ≤ d(A, B) × (1 + `slackFraction`) + `slackKm`. The points that pass
/// form an ellipse with A and B as foci: it contains every point within `slackKm` / 2 of
/// either end (a departure or an arrival, whatever the runway's heading), and around the middle
/// of a leg it reaches out about a sixth of the leg's length from the great circle (150 km on
/// a 1,000 km leg, 800 km on a 5,000 km one), room for airways and oceanic tracks. A route
/// is plausible when the aircraft fits one of its legs; a route with an end whose position is
/// unknown cannot be judged, and is not shown.
package enum RoutePlausibility {
    /// How much longer than the leg, as a fraction of it, the way through the aircraft may be.
    package static let slackFraction = 0.1
    /// How much longer, in kilometres, beyond the fraction: twice the distance from an end
    /// that always passes.
    package static let slackKm = 100.0

    /// Whether an aircraft at `latitude`, `longitude` (degrees) fits `route`.
    package static func isPlausible(_ route: FlightRoute, latitude: Double, longitude: Double) -> Bool {
        let airports = route.airports
        var points: [(Double, Double)] = []
        for airport in airports {
            guard let lat = airport.latitude, let lon = airport.longitude else { return false }
            points.append((lat, lon))
        }
        for index in points.indices.dropLast() {
            let a = points[index]
            let b = points[index + 1]
            let leg = distanceKm(a, b)
            let through = distanceKm(a, (latitude, longitude)) + distanceKm((latitude, longitude), b)
            if through <= leg * (1 + slackFraction) + slackKm { return true }
        }
        return false
    }

    /// The great-circle distance between two points (latitude, longitude in degrees), km.
    package static func distanceKm(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
        CPR.distanceKm(GeoPoint(latitude: a.0, longitude: a.1), GeoPoint(latitude: b.0, longitude: b.1))
    }
}
