// words.js: how the list and the card put an aircraft into words.

import assert from "node:assert/strict";
import { test } from "node:test";

import {
  airportName, categoryName, describeAltitude, describeIdentity, describeRoute, typeCode, describeSpeed, elevationPhrase, formatBearing,
  formatDistance, formatElevation, roundHalfAway, trend,
} from "../../Sources/Web/App/words.js";

test("roundHalfAway rounds halves away from zero on both sides", () => {
  assert.equal(roundHalfAway(2.5), 3);
  assert.equal(roundHalfAway(-2.5), -3);
  assert.equal(roundHalfAway(0.5), 1);
  assert.equal(roundHalfAway(-0.5), -1);
  assert.equal(roundHalfAway(2.49), 2);
  assert.equal(roundHalfAway(-2.49), -2);
  assert.equal(roundHalfAway(7), 7);
  // Math.round alone would take −2.5 to −2: the two signs would not mirror each other.
  for (const value of [0.5, 1.5, 12.5, 179.5]) assert.equal(roundHalfAway(-value), -roundHalfAway(value));
});

test("formatDistance gives tenths of a km, halves up, and null when unknown", () => {
  assert.equal(formatDistance(12.25), "12.3 km");
  assert.equal(formatDistance(12.24), "12.2 km");
  assert.equal(formatDistance(0.05), "0.1 km");
  assert.equal(formatDistance(0.04), "0.0 km");
  assert.equal(formatDistance(0), "0.0 km");
  assert.equal(formatDistance(7), "7.0 km");
  assert.equal(formatDistance(1234.56), "1234.6 km");
  assert.equal(formatDistance(null), null);
  assert.equal(formatDistance(undefined), null);
});

test("formatBearing gives whole degrees and wraps 359.5 round to 0", () => {
  assert.equal(formatBearing(0), "0°");
  assert.equal(formatBearing(230), "230°");
  assert.equal(formatBearing(89.5), "90°");
  assert.equal(formatBearing(89.49), "89°");
  assert.equal(formatBearing(359.4), "359°");
  assert.equal(formatBearing(359.5), "0°");
  assert.equal(formatBearing(-0.4), "0°");
});

test("formatElevation says up or down, never a negative number", () => {
  assert.equal(formatElevation(12.4), "12° up");
  assert.equal(formatElevation(0.5), "1° up");
  assert.equal(formatElevation(90), "90° up");
  assert.equal(formatElevation(-2.5), "3° down");
  assert.equal(formatElevation(-1), "1° down");
  // Rounds to nothing: neither "-0° up" nor "0° down".
  assert.equal(formatElevation(-0.4), "0° up");
  assert.equal(formatElevation(0), "0° up");
});

test("elevationPhrase names the horizon when the elevation rounds to 0", () => {
  assert.equal(elevationPhrase(12.5), "13° above the horizon");
  assert.equal(elevationPhrase(1), "1° above the horizon");
  assert.equal(elevationPhrase(-1.5), "2° below the horizon");
  assert.equal(elevationPhrase(0), "on the horizon");
  assert.equal(elevationPhrase(0.4), "on the horizon");
  assert.equal(elevationPhrase(-0.4), "on the horizon");
  assert.equal(elevationPhrase(0.5), "1° above the horizon");
  assert.equal(elevationPhrase(-0.5), "1° below the horizon");
});

test("describeAltitude prefers barometric feet, then geometric, with thousands separated", () => {
  assert.equal(describeAltitude({ alt_baro_ft: 2600 }), "2,600 ft");
  assert.equal(describeAltitude({ alt_baro_ft: 2600, alt_geo_ft: 2750 }), "2,600 ft");
  assert.equal(describeAltitude({ alt_baro_ft: null, alt_geo_ft: 35000 }), "35,000 ft");
  assert.equal(describeAltitude({ alt_baro_ft: 0, alt_geo_ft: 100 }), "0 ft", "0 ft is a known altitude");
  assert.equal(describeAltitude({ alt_baro_ft: 950 }), "950 ft");
  assert.equal(describeAltitude({ alt_baro_ft: -150 }), "-150 ft");
  assert.equal(describeAltitude({ alt_baro_ft: 100000 }), "100,000 ft");
  assert.equal(describeAltitude({}), null);
  assert.equal(describeAltitude({ alt_baro_ft: null, alt_geo_ft: null }), null);
});

test("describeAltitude says on the ground whatever the altitude", () => {
  assert.equal(describeAltitude({ on_ground: true }), "on the ground");
  assert.equal(describeAltitude({ on_ground: true, alt_baro_ft: 25 }), "on the ground");
  assert.equal(describeAltitude({ on_ground: false, alt_baro_ft: 25 }), "25 ft");
});

test("trend: 300 ft/min either way is the edge of level flight", () => {
  assert.equal(trend({ vertical_rate_fpm: 300 }), "climbing");
  assert.equal(trend({ vertical_rate_fpm: 2500 }), "climbing");
  assert.equal(trend({ vertical_rate_fpm: 299 }), "level");
  assert.equal(trend({ vertical_rate_fpm: 0 }), "level");
  assert.equal(trend({ vertical_rate_fpm: -299 }), "level");
  assert.equal(trend({ vertical_rate_fpm: -300 }), "descending");
  assert.equal(trend({ vertical_rate_fpm: -1200 }), "descending");
});

test("trend is unknown without a rate, and nothing on the ground", () => {
  assert.equal(trend({}), null);
  assert.equal(trend({ vertical_rate_fpm: null }), null);
  assert.equal(trend({ vertical_rate_fpm: 1000, on_ground: true }), null);
});

test("categoryName knows the emitter categories and nothing else", () => {
  assert.equal(categoryName("A1"), "light aircraft");
  assert.equal(categoryName("A7"), "helicopter");
  assert.equal(categoryName("B2"), "balloon");
  assert.equal(categoryName("C3"), "obstacle");
  // A0, B0, C0: no category information; B5 and C4 to C7 are reserved or unnamed.
  for (const code of ["A0", "B0", "B5", "C0", "D1", "a7"]) assert.equal(categoryName(code), null, code);
  assert.equal(categoryName(""), null);
  assert.equal(categoryName(null), null);
  assert.equal(categoryName(undefined), null);
});

test("describeSpeed gives knots and km/h (1 kt = 1.852 km/h), each rounded", () => {
  // 123 × 1.852 = 227.796.
  assert.equal(describeSpeed(123), "123 kt (228 km/h)");
  // 250 × 1.852 = 463; 500 × 1.852 = 926.
  assert.equal(describeSpeed(250), "250 kt (463 km/h)");
  assert.equal(describeSpeed(500), "500 kt (926 km/h)");
  // 99.6 kt rounds to 100; 99.6 × 1.852 = 184.46 rounds to 184.
  assert.equal(describeSpeed(99.6), "100 kt (184 km/h)");
  assert.equal(describeSpeed(0), "0 kt (0 km/h)");
  assert.equal(describeSpeed(null), null);
  assert.equal(describeSpeed(undefined), null);
});

test("airportName puts the IATA code (else ICAO) before the name, with whatever is known", () => {
  assert.equal(airportName({ iata: "AMS", icao: "EHAM", name: "Amsterdam Airport Schiphol" }),
    "AMS Amsterdam Airport Schiphol");
  assert.equal(airportName({ icao: "EHAM", name: "Amsterdam Airport Schiphol" }), "EHAM Amsterdam Airport Schiphol");
  assert.equal(airportName({ iata: "", icao: "EHAM" }), "EHAM");
  assert.equal(airportName({ name: "Texel" }), "Texel");
  assert.equal(airportName({ iata: "AMS", name: "" }), "AMS");
});

test("airportName is null for anything that is not a described airport", () => {
  assert.equal(airportName({}), null);
  assert.equal(airportName({ iata: 42, name: null }), null);
  assert.equal(airportName("AMS"), null);
  assert.equal(airportName(null), null);
  assert.equal(airportName(undefined), null);
});

test("describeRoute joins both ends with an arrow, a question mark for the unknown one", () => {
  const amsterdam = { iata: "AMS" };
  const london = { iata: "LHR", icao: "EGLL" };
  assert.equal(describeRoute({ origin: amsterdam, destination: london }), "AMS → LHR");
  assert.equal(describeRoute({ origin: amsterdam }), "AMS → ?");
  assert.equal(describeRoute({ destination: london }), "? → LHR");
  assert.equal(describeRoute({ origin: {}, destination: {} }), null);
  assert.equal(describeRoute({}), null);
  assert.equal(describeRoute("AMS-LHR"), null);
  assert.equal(describeRoute(null), null);
});

test("describeRoute names the stops of a multi-leg route by their codes, in order", () => {
  const route = {
    origin: { iata: "DUB" },
    destination: { iata: "PMI" },
    stops: [{ iata: "STN", name: "London Stansted" }, { icao: "LFBO" }, {}, null, 7, { iata: "<b>TOO-LONG-CODE</b>" }],
  };
  assert.equal(describeRoute(route), "DUB → STN → LFBO → PMI");
  assert.equal(describeRoute({ ...route, stops: "STN" }), "DUB → PMI");
  assert.equal(describeRoute({ ...route, stops: [] }), "DUB → PMI");
});

test("describeIdentity names the type, the operator and the registration, each when known", () => {
  assert.equal(
    describeIdentity({ type: "A320", type_desc: "Airbus A320", operator: "easyJet", registration: "G-EZAB" }),
    "Airbus A320 · easyJet · G-EZAB");
  assert.equal(describeIdentity({ type: "B738", type_desc: null, operator: null, registration: "N12345" }), "B738 · N12345");
  assert.equal(describeIdentity({ type: null, class: "heavy" }), null);
  assert.equal(describeIdentity({ type_desc: "   ", operator: 42, registration: ["G-EZAB"] }), null);
  assert.equal(describeIdentity({ type_desc: "x".repeat(500) }).length, 80);
  for (const nothing of [null, undefined, "A320", 7]) assert.equal(describeIdentity(nothing), null);
});

test("typeCode gives the list a short type code or nothing", () => {
  assert.equal(typeCode({ type: "A320" }), "A320");
  assert.equal(typeCode({ type: " B77W " }), "B77W");
  for (const nothing of [null, {}, { type: "" }, { type: 7 }, { type: "A-VERY-LONG-CODE" }]) {
    assert.equal(typeCode(nothing), null);
  }
});
