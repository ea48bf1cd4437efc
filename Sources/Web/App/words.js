// How the radar puts an aircraft into words: the list and the card say the same things the
// same way.

const number = new Intl.NumberFormat("en");

/** A climb or descent slower than this (feet per minute) is level flight. */
const LEVEL_FPM = 300;

/** ADS-B emitter categories in plain words. */
const CATEGORIES = {
  A1: "light aircraft", A2: "small aircraft", A3: "large aircraft", A4: "large aircraft (757)",
  A5: "heavy aircraft", A6: "fast, agile aircraft", A7: "helicopter",
  B1: "glider", B2: "balloon", B3: "parachutist", B4: "ultralight", B6: "drone", B7: "spacecraft",
  C1: "emergency vehicle", C2: "service vehicle", C3: "obstacle",
};

/** Rounds to the nearest whole number, halves away from zero (the same for both signs). */
export function roundHalfAway(value) {
  return Math.sign(value) * Math.round(Math.abs(value));
}

/** "12.3 km" (halves rounded up), or null when unknown. */
export function formatDistance(km) {
  return km == null ? null : `${(roundHalfAway(km * 10) / 10).toFixed(1)} km`;
}

/** A compass bearing in whole degrees: "230°". */
export function formatBearing(degrees) {
  return `${roundHalfAway(degrees) % 360}°`;
}

/** Elevation for the list: "12° up" (or "2° down", below the horizon). */
export function formatElevation(degrees) {
  const whole = roundHalfAway(degrees);
  return whole < 0 ? `${-whole}° down` : `${whole}° up`;
}

/** Elevation for the card: "12° above the horizon". */
export function elevationPhrase(degrees) {
  const whole = roundHalfAway(degrees);
  if (whole === 0) return "on the horizon";
  return whole > 0 ? `${whole}° above the horizon` : `${-whole}° below the horizon`;
}

/** "2,600 ft", "on the ground", or null. */
export function describeAltitude(data) {
  if (data.on_ground) return "on the ground";
  const feet = data.alt_baro_ft ?? data.alt_geo_ft;
  return feet == null ? null : `${number.format(feet)} ft`;
}

/** "climbing", "descending", "level", or null. */
export function trend(data) {
  const rate = data.vertical_rate_fpm;
  if (rate == null || data.on_ground) return null;
  if (rate >= LEVEL_FPM) return "climbing";
  if (rate <= -LEVEL_FPM) return "descending";
  return "level";
}

/** The category in words, or null. */
export function categoryName(code) {
  return code ? CATEGORIES[code] ?? null : null;
}

/** "123 kt (228 km/h)", or null. */
export function describeSpeed(knots) {
  return knots == null ? null : `${Math.round(knots)} kt (${Math.round(knots * 1.852)} km/h)`;
}

/** One end of a route: "AMS Amsterdam Airport Schiphol", whatever of it is known. */
export function airportName(airport) {
  if (!airport || typeof airport !== "object") return null;
  const code = airport.iata || airport.icao;
  const parts = [code, airport.name].filter((part) => typeof part === "string" && part.length > 0);
  return parts.length > 0 ? parts.join(" ") : null;
}

/**
 * Who an aircraft is, from the feed's `identity`: "Airbus A320neo · easyJet · G-EZAB", each
 * part only when known (the type's description, else its code); null when nothing is known.
 * The feed's texts come from data files: only strings of printable length are taken.
 */
export function describeIdentity(identity) {
  if (!identity || typeof identity !== "object") return null;
  const text = (value) => (typeof value === "string" && value.trim() !== "" ? value.trim().slice(0, 80) : null);
  const parts = [text(identity.type_desc) ?? text(identity.type), text(identity.operator), text(identity.registration)]
    .filter(Boolean);
  return parts.length > 0 ? parts.join(" · ") : null;
}

/** The short type for the list ("A320"), or null. */
export function typeCode(identity) {
  if (!identity || typeof identity !== "object" || typeof identity.type !== "string") return null;
  const code = identity.type.trim();
  return code !== "" && code.length <= 8 ? code : null;
}

/**
 * "AMS → LHR" style route text, with the stops of a multi-leg flight by their codes between
 * ("DUB → STN → PMI"); null when unknown.
 */
export function describeRoute(route) {
  if (!route || typeof route !== "object") return null;
  const from = airportName(route.origin);
  const to = airportName(route.destination);
  if (!from && !to) return null;
  const stops = Array.isArray(route.stops) ? route.stops.slice(0, 8) : [];
  const via = stops
    .map((stop) => (stop && typeof stop === "object" ? stop.iata || stop.icao : null))
    .filter((code) => typeof code === "string" && code.length > 0 && code.length <= 8);
  return [from ?? "?", ...via, to ?? "?"].join(" → ");
}
