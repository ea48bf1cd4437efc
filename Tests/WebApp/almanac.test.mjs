// almanac.js: the sun's and the moon's places in the observer's sky, and the moon's phase.

import assert from "node:assert/strict";
import { test } from "node:test";

import { moonPosition, sunPosition } from "../../Sources/Web/App/almanac.js";
import { angleDifference } from "../../Sources/Web/App/angles.js";

const RAD = Math.PI / 180;
const MINUTE_MS = 60_000;

const AMSTERDAM = [52.3676, 4.9041];
const CAPE_TOWN = [-33.9249, 18.4241];
const GREENWICH = [51.4769, 0];
const QUITO = [-0.1807, -78.4678];
const SAO_PAULO = [-23.5505, -46.6333];
const SYDNEY = [-33.8688, 151.2093];
const TROMSO = [69.6492, 18.9553];

/** How far apart two places in the sky are, degrees along the great circle through them. */
function separation(a, b) {
  const cosine = Math.sin(a.elevationDeg * RAD) * Math.sin(b.elevationDeg * RAD)
    + Math.cos(a.elevationDeg * RAD) * Math.cos(b.elevationDeg * RAD) * Math.cos((a.azimuthDeg - b.azimuthDeg) * RAD);
  return Math.acos(Math.min(1, Math.max(-1, cosine))) / RAD;
}

/** The dates from `from` to `to` (ISO strings) every `stepMs`. */
function* moments(from, to, stepMs) {
  for (let ms = Date.parse(from); ms <= Date.parse(to); ms += stepMs) yield new Date(ms);
}

// Apparent, topocentric places from sea level with the standard refraction (10 °C, 1010 hPa):
// skyfield 1.55, DE421, `(earth + wgs84.latlon(lat, lon)).at(t).observe(body).apparent()
// .altaz('standard')`, and `almanac.fraction_illuminated` for the moon's lit fraction.
const REFERENCES = [
  // body, place, UTC, azimuth, elevation, lit fraction
  ["sun", AMSTERDAM, "2026-06-21T12:00Z", 188.409, 60.879],
  ["sun", SYDNEY, "2026-01-15T02:00Z", 4.657, 77.243],
  ["sun", QUITO, "2026-03-20T17:00Z", 87.659, 84.685],
  // The midnight sun, 3.1° geometric: refraction lifts it by 0.22°.
  ["sun", TROMSO, "2026-06-21T23:00Z", 3.194, 3.339],
  ["sun", SAO_PAULO, "2026-09-01T18:30Z", 296.213, 31.124],
  ["moon", AMSTERDAM, "2026-01-03T00:00Z", 200.553, 63.926, 0.9959],
  ["moon", SYDNEY, "2026-05-01T12:00Z", 60.648, 63.237, 0.998],
  ["moon", QUITO, "2026-08-28T04:00Z", 117.014, 69.106, 1.0],
  ["moon", TROMSO, "2026-12-24T22:00Z", 148.732, 42.892, 0.9881],
  ["moon", SAO_PAULO, "2026-10-26T01:00Z", 33.285, 43.18, 0.9982],
  ["moon", TROMSO, "2026-04-21T09:00Z", 87.608, 28.535, 0.2069],
  ["moon", CAPE_TOWN, "2026-04-09T00:00Z", 100.889, 37.371, 0.6155],
];

test("sun and moon agree with DE421 within 0.05° (0.1° and 0.5° are promised), the lit fraction within 0.005", () => {
  for (const [body, [lat, lon], utc, azimuthDeg, elevationDeg, phase] of REFERENCES) {
    const place = (body === "sun" ? sunPosition : moonPosition)(new Date(utc), lat, lon);
    const apart = separation(place, { azimuthDeg, elevationDeg });
    assert.ok(apart <= 0.05, `${body} at ${lat}, ${lon}, ${utc}: ${JSON.stringify(place)} is ${apart}° away`);
    // Half the azimuth's round-off at this elevation, or 0.05° along the sky.
    assert.ok(Math.abs(place.elevationDeg - elevationDeg) <= 0.05, `${body} ${utc}: elevation ${place.elevationDeg}`);
    if (phase !== undefined) assert.ok(Math.abs(place.phase - phase) <= 0.005, `${utc}: phase ${place.phase}`);
  }
});

/**
 * The moment, to the second, within `minutes` of `from` at which the sun passes the azimuth
 * `azimuthDeg` (the first second past it), and the highest elevation of those minutes.
 */
function passage(lat, lon, from, minutes, azimuthDeg) {
  let previous = null;
  let passed = null;
  let highest = -90;
  for (const date of moments(from, new Date(Date.parse(from) + minutes * MINUTE_MS).toISOString(), 1000)) {
    const place = sunPosition(date, lat, lon);
    const side = Math.sign(angleDifference(azimuthDeg, place.azimuthDeg));
    if (previous !== null && side !== previous && passed === null) passed = { date, place };
    previous = side;
    highest = Math.max(highest, place.elevationDeg);
  }
  return { ...passed, highest };
}

test("the sun culminates due south north of the tropics, due north south of them, at the almanac's time", () => {
  // skyfield 1.55, DE421 (`almanac.meridian_transits`): 11:43:33 at Greenwich, 02:04:03 at Sydney.
  const transits = [
    [GREENWICH, "2026-11-03T11:30Z", 180, "2026-11-03T11:43:33Z"],
    [SYDNEY, "2026-01-14T01:50Z", 0, "2026-01-14T02:04:03Z"],
  ];
  for (const [[lat, lon], from, azimuthDeg, expected] of transits) {
    const { date, place, highest } = passage(lat, lon, from, 30, azimuthDeg);
    assert.ok(Math.abs(date - Date.parse(expected)) <= 10_000, `${date.toISOString()}, not ${expected}`);
    // The highest of the day, but for the sun's own drift in declination over a few seconds.
    assert.ok(highest - place.elevationDeg < 0.001, `${place.elevationDeg} at the meridian, ${highest} highest`);
  }
  // A little before noon in the east of south, a little after in the west.
  const noon = Date.parse("2026-11-03T11:43:33Z");
  assert.ok(sunPosition(new Date(noon - 600_000), ...GREENWICH).azimuthDeg < 180);
  assert.ok(sunPosition(new Date(noon + 600_000), ...GREENWICH).azimuthDeg > 180);
});

test("at the March equinox the sun stands overhead somewhere on the equator, underfoot on the other side", () => {
  // skyfield 1.55, DE421 (`almanac.seasons`): the equinox of 2026 is at 14:45:57 UTC.
  const equinox = new Date("2026-03-20T14:45:57Z");
  let highest = -90;
  let lowest = 90;
  for (let lon = -180; lon < 180; lon += 0.25) {
    const elevation = sunPosition(equinox, 0, lon).elevationDeg;
    highest = Math.max(highest, elevation);
    lowest = Math.min(lowest, elevation);
  }
  assert.ok(highest > 89.8 && highest <= 90, `highest ${highest}`);
  assert.ok(lowest < -89.8, `lowest ${lowest}`);
  // Neither pole sees it more than its own half-degree disc and the refraction off the horizon.
  assert.ok(Math.abs(sunPosition(equinox, 90, 0).elevationDeg) < 0.7);
  assert.ok(Math.abs(sunPosition(equinox, -90, 0).elevationDeg) < 0.7);
});

test("Tromsø has a polar night at the December solstice and a midnight sun at the June one", () => {
  // skyfield 1.55, DE421: the sun's highest on 21 December 2026 at Tromsø is −3.09°, geometric.
  // The refraction, 0.65° at −1°, fades to none at −5°: 1.91 / 4 of it is left at −3.09°.
  let highest = -90;
  for (const date of moments("2026-12-21T00:00Z", "2026-12-22T00:00Z", MINUTE_MS)) {
    highest = Math.max(highest, sunPosition(date, ...TROMSO).elevationDeg);
  }
  assert.ok(Math.abs(highest - (-3.09 + (0.647 * 1.91) / 4)) < 0.05, `highest ${highest}`);
  for (const date of moments("2026-06-21T00:00Z", "2026-06-22T00:00Z", 10 * MINUTE_MS)) {
    assert.ok(sunPosition(date, ...TROMSO).elevationDeg > 2, date.toISOString());
  }
});

test("the moon's phase: new, first quarter, full, last quarter, and whether it waxes", () => {
  // skyfield 1.55, DE421 (`almanac.moon_phases`), January 2025, and the lit fraction then.
  const phases = [
    ["2025-01-06T23:56:18Z", 0.5012],
    ["2025-01-13T22:26:55Z", 0.9984],
    ["2025-01-21T20:30:47Z", 0.5014],
    ["2025-01-29T12:35:59Z", 0.0011],
  ];
  for (const [utc, fraction] of phases) {
    assert.ok(Math.abs(moonPosition(new Date(utc), ...AMSTERDAM).phase - fraction) < 0.005, utc);
  }
  const waxing = (utc) => moonPosition(new Date(utc), ...AMSTERDAM).waxing;
  assert.equal(waxing("2025-01-06T23:56Z"), true);
  assert.equal(waxing("2025-01-13T20:00Z"), true);
  assert.equal(waxing("2025-01-14T01:00Z"), false);
  assert.equal(waxing("2025-01-21T20:30Z"), false);
  assert.equal(waxing("2025-01-29T10:00Z"), false);
  assert.equal(waxing("2025-01-29T15:00Z"), true);
  // The phase is the moon's, not the observer's: the same from every place.
  const there = moonPosition(new Date("2025-01-21T20:30Z"), ...SYDNEY);
  assert.ok(Math.abs(there.phase - 0.5014) < 0.005 && there.waxing === false);
});

test("azimuth passes through north without a jump: the sun at Sydney's noon, the midnight sun at Tromsø", () => {
  const passes = [
    [SYDNEY, "2026-01-14T01:00Z", "2026-01-14T03:00Z"],
    [TROMSO, "2026-06-21T22:00Z", "2026-06-21T23:30Z"],
  ];
  for (const [[lat, lon], from, to] of passes) {
    let previous = null;
    let crossed = false;
    for (const date of moments(from, to, 10_000)) {
      const { azimuthDeg } = sunPosition(date, lat, lon);
      assert.ok(azimuthDeg >= 0 && azimuthDeg < 360, `${azimuthDeg}`);
      if (previous !== null) {
        assert.ok(Math.abs(angleDifference(previous, azimuthDeg)) < 0.5, `${previous} → ${azimuthDeg} at ${date.toISOString()}`);
        crossed ||= Math.abs(previous - azimuthDeg) > 340;
      }
      previous = azimuthDeg;
    }
    assert.ok(crossed, `${from}: the azimuth did not pass through north`);
  }
});

test("over whole days both move smoothly through rising and setting, refraction and all", () => {
  // The Earth turns 0.25° a minute: nothing in the sky moves much faster along it.
  for (const [lat, lon] of [AMSTERDAM, QUITO, SYDNEY, TROMSO, CAPE_TOWN]) {
    for (const body of [sunPosition, moonPosition]) {
      let previous = null;
      for (const date of moments("2026-03-01T00:00Z", "2026-03-03T00:00Z", MINUTE_MS)) {
        const place = body(date, lat, lon);
        if (previous !== null) {
          assert.ok(separation(previous, place) < 0.35, `${body.name} ${lat}, ${lon} ${date.toISOString()}`);
          assert.ok(Math.abs(place.elevationDeg - previous.elevationDeg) < 0.35, `${body.name} ${date.toISOString()}`);
        }
        previous = place;
      }
    }
  }
});

test("every latitude from pole to pole and every date from 1990 to 2100 gives numbers in range", () => {
  const first = Date.parse("1990-01-01T00:00Z");
  const last = Date.parse("2100-12-31T23:59Z");
  // 211 days and 7 hours apart: the dates fall on every season and time of day.
  for (let ms = first; ms <= last; ms += (211 * 24 + 7) * 3_600_000) {
    const date = new Date(ms);
    for (let lat = -90; lat <= 90; lat += 5) {
      for (let lon = -180; lon <= 180; lon += 45) {
        const sun = sunPosition(date, lat, lon);
        const moon = moonPosition(date, lat, lon);
        for (const place of [sun, moon]) {
          const where = `${lat}, ${lon}, ${date.toISOString()}: ${JSON.stringify(place)}`;
          assert.ok(place.azimuthDeg >= 0 && place.azimuthDeg < 360, where);
          assert.ok(place.elevationDeg >= -90 && place.elevationDeg <= 90, where);
        }
        assert.ok(moon.phase >= 0 && moon.phase <= 1 && typeof moon.waxing === "boolean");
      }
    }
  }
});
