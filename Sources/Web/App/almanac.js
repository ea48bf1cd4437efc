// Where the sun and the moon stand in the sky of the observer, for the sky view, which draws
// them so that the compass can be set by pointing the phone at one of them. Low-precision
// almanac formulas: the sun's mean elements and equation of the centre, the moon's mean
// arguments and the largest periodic terms of its longitude, latitude and distance; both
// turned into the observer's horizon through the sidereal time, the moon seen from the
// observer's place on the WGS-84 ellipsoid rather than from the Earth's centre (its parallax
// reaches a degree). Both stay within a few hundredths of a degree of a full almanac
// (docs/web.md, sun and moon): far finer than anyone can point a phone.
//
// Elevations include the standard refraction of the air (10 °C, 1010 hPa), which lifts a body
// on the horizon by about half a degree: it is where the eye and the camera see it.

import { normalizeDegrees } from "./angles.js";

const RAD = Math.PI / 180;
const MS_PER_DAY = 86_400_000;
/** The Julian day at 1970-01-01 00:00 UTC, where Date's milliseconds count from. */
const JD_UNIX_EPOCH = 2_440_587.5;
/** The Julian day of the epoch J2000.0 (2000-01-01 12:00), from which the series count time. */
const JD_J2000 = 2_451_545;
const DAYS_PER_CENTURY = 36_525;
/**
 * Terrestrial time less universal time, seconds. The series run on the uniform time of the
 * orbits, the clock and the sidereal time on the Earth's turning. About 69 s through the
 * 2020s, 57 s in 1990, a few minutes more by 2100 as forecast: the moon moves 0.009° a
 * minute, the sun 0.0007°.
 */
const DELTA_T_S = 69;
/** The Earth's ellipsoid (WGS-84, as satellite positions are given): equatorial radius, flattening. */
const EARTH_RADIUS_KM = 6378.137;
const EARTH_FLATTENING = 1 / 298.257223563;
const AU_KM = 149_597_870.7;
/** The moon's mean distance, km, to which the distance terms add. */
const MOON_MEAN_DISTANCE_KM = 385_000.56;
/** Refraction is worked out down to this geometric elevation, then fades to none at REFRACTION_END_DEG. */
const REFRACTION_FLOOR_DEG = -1;
const REFRACTION_END_DEG = -5;

/**
 * The largest periodic terms of the moon's ecliptic longitude and distance, as multiples of
 * the mean arguments D (elongation from the sun), M (the sun's anomaly), M′ (the moon's
 * anomaly) and F (argument of latitude): the sine term of longitude in millionths of a degree,
 * the cosine term of distance in metres. Terms below 0.002° of longitude are left out: together
 * they stay within about 0.01°. The distance only sets the parallax, where 10 km is 0.00003°.
 */
const MOON_LONGITUDE_DISTANCE = [
  // D, M, M′, F, longitude (1e-6°), distance (m)
  [0, 0, 1, 0, 6_288_774, -20_905_355],
  [2, 0, -1, 0, 1_274_027, -3_699_111],
  [2, 0, 0, 0, 658_314, -2_955_968],
  [0, 0, 2, 0, 213_618, -569_925],
  [0, 1, 0, 0, -185_116, 48_888],
  [0, 0, 0, 2, -114_332, -3_149],
  [2, 0, -2, 0, 58_793, 246_158],
  [2, -1, -1, 0, 57_066, -152_138],
  [2, 0, 1, 0, 53_322, -170_733],
  [2, -1, 0, 0, 45_758, -204_586],
  [0, 1, -1, 0, -40_923, -129_620],
  [1, 0, 0, 0, -34_720, 108_743],
  [0, 1, 1, 0, -30_383, 104_755],
  [2, 0, 0, -2, 15_327, 10_321],
  [0, 0, 1, 2, -12_528, 0],
  [0, 0, 1, -2, 10_980, 79_661],
  [4, 0, -1, 0, 10_675, -34_782],
  [0, 0, 3, 0, 10_034, -23_210],
  [4, 0, -2, 0, 8_548, -21_636],
  [2, 1, -1, 0, -7_888, 24_208],
  [2, 1, 0, 0, -6_766, 30_824],
  [1, 0, -1, 0, -5_163, -8_379],
  [1, 1, 0, 0, 4_987, -16_675],
  [2, -1, 1, 0, 4_036, -12_831],
  [2, 0, 2, 0, 3_994, -10_445],
  [4, 0, 0, 0, 3_861, -11_650],
  [2, 0, -3, 0, 3_665, 14_403],
  [0, 1, -2, 0, -2_689, -7_003],
  [2, 0, -1, 2, -2_602, 0],
  [2, -1, -2, 0, 2_390, 10_056],
  [1, 0, 1, 0, -2_348, 6_322],
  [2, -2, 0, 0, 2_236, -9_884],
  [0, 1, 2, 0, -2_120, 5_751],
  [0, 2, 0, 0, -2_069, 0],
  [2, -2, -1, 0, 2_048, -4_950],
];

/** The same for the moon's ecliptic latitude (sine terms, millionths of a degree), down to 0.001°. */
const MOON_LATITUDE = [
  // D, M, M′, F, latitude (1e-6°)
  [0, 0, 0, 1, 5_128_122],
  [0, 0, 1, 1, 280_602],
  [0, 0, 1, -1, 277_693],
  [2, 0, 0, -1, 173_237],
  [2, 0, -1, 1, 55_413],
  [2, 0, -1, -1, 46_271],
  [2, 0, 0, 1, 32_573],
  [0, 0, 2, 1, 17_198],
  [2, 0, 1, -1, 9_266],
  [0, 0, 2, -1, 8_822],
  [2, -1, 0, -1, 8_216],
  [2, 0, -2, -1, 4_324],
  [2, 0, 1, 1, 4_200],
  [2, 1, 0, -1, -3_359],
  [2, -1, -1, 1, 2_463],
  [2, -1, 0, 1, 2_211],
  [2, -1, -1, -1, 2_065],
  [0, 1, -1, -1, -1_870],
  [4, 0, -1, -1, 1_828],
  [0, 1, 0, 1, -1_794],
  [0, 0, 0, 3, -1_749],
  [0, 1, -1, 1, -1_565],
  [1, 0, 0, 1, -1_491],
  [0, 1, 1, 1, -1_475],
  [0, 1, 1, -1, -1_410],
  [0, 1, 0, -1, -1_344],
  [1, 0, 0, -1, -1_335],
  [0, 0, 3, 1, 1_107],
  [4, 0, 0, -1, 1_021],
];

const sin = (degrees) => Math.sin(degrees * RAD);
const cos = (degrees) => Math.cos(degrees * RAD);

/** The Julian days (universal and terrestrial time) of a Date. */
function julianDays(date) {
  const ut = +date / MS_PER_DAY + JD_UNIX_EPOCH;
  return { ut, tt: ut + DELTA_T_S / 86_400 };
}

/**
 * The nutation (degrees): the wobble of the Earth's axis, mostly with the 18.6-year turn of
 * the moon's node, moving the equinox by up to 0.005° in longitude (`longitude`) and tilting
 * the equator by up to 0.003° (`obliquity`). Its two largest terms; T in Julian centuries.
 */
function nutation(T) {
  const node = 125.04452 - 1934.136261 * T;
  const sunMean = 280.4665 + 36_000.7698 * T;
  return {
    longitude: (-17.2 * sin(node) - 1.32 * sin(2 * sunMean)) / 3600,
    obliquity: (9.2 * cos(node) + 0.57 * cos(2 * sunMean)) / 3600,
  };
}

/** The tilt of the equator on the ecliptic (degrees), mean of date plus nutation. */
function obliquity(T, nutated) {
  return 23.4392911 - 0.0130042 * T + nutated.obliquity;
}

/**
 * The apparent sidereal time at Greenwich (degrees): the angle the Earth has turned from the
 * equinox, from universal time, plus the equinox's own nutation along the equator.
 */
function siderealTime(jdUT, T, nutated, epsilon) {
  const days = jdUT - JD_J2000;
  const mean = 280.46061837 + 360.98564736629 * days + 0.000387933 * T * T;
  return mean + nutated.longitude * cos(epsilon);
}

/**
 * The sun's apparent ecliptic longitude (degrees) and distance (km): its mean longitude (with
 * the 20″ of aberration already taken off) and mean anomaly, and the equation of the centre
 * from the orbit's eccentricity. `days` counts from J2000.0.
 */
function sunEcliptic(days, nutated) {
  const meanLongitude = 280.46 + 0.9856474 * days;
  const anomaly = 357.528 + 0.9856003 * days;
  const longitude = meanLongitude + 1.915 * sin(anomaly) + 0.02 * sin(2 * anomaly) + nutated.longitude;
  const distanceAU = 1.00014 - 0.01671 * cos(anomaly) - 0.00014 * cos(2 * anomaly);
  return { longitude, latitude: 0, distanceKm: distanceAU * AU_KM };
}

/**
 * The moon's mean arguments (degrees) at T Julian centuries from J2000.0: its mean longitude
 * L′, D, M, M′ and F as in the tables, and E, by which terms in M shrink as the Earth's orbit
 * grows rounder. Terms in T³ and beyond stay under 0.0001° before 2100 and are left out.
 */
function moonArguments(T) {
  return {
    L: 218.3164477 + 481_267.88123421 * T - 0.0015786 * T * T,
    D: 297.8501921 + 445_267.1114034 * T - 0.0018819 * T * T,
    M: 357.5291092 + 35_999.0502909 * T - 0.0001536 * T * T,
    Mp: 134.9633964 + 477_198.8675055 * T + 0.0087414 * T * T,
    F: 93.272095 + 483_202.0175233 * T - 0.0036539 * T * T,
    E: 1 - 0.002516 * T - 0.0000074 * T * T,
  };
}

/** The sum of a table's terms, each its coefficient at column `column` times sin (or cos) of its argument. */
function series(table, column, a, wave) {
  let sum = 0;
  for (const row of table) {
    const [d, m, mp, f] = row;
    const argument = d * a.D + m * a.M + mp * a.Mp + f * a.F;
    sum += row[column] * a.E ** Math.abs(m) * wave(argument);
  }
  return sum;
}

/**
 * The moon's apparent geocentric ecliptic longitude and latitude (degrees) and distance (km).
 * Beside the tables, the pull of Venus (A1) and the flattening of the Earth (through L′ − F and
 * L′) each add a few thousandths of a degree.
 */
function moonEcliptic(T, nutated) {
  const a = moonArguments(T);
  const venus = 119.75 + 131.849 * T;
  const longitudeTerms = series(MOON_LONGITUDE_DISTANCE, 4, a, sin) + 3958 * sin(venus) + 1962 * sin(a.L - a.F);
  const latitudeTerms = series(MOON_LATITUDE, 4, a, sin) - 2235 * sin(a.L) + 175 * (sin(venus - a.F) + sin(venus + a.F));
  return {
    longitude: a.L + longitudeTerms / 1e6 + nutated.longitude,
    latitude: latitudeTerms / 1e6,
    distanceKm: MOON_MEAN_DISTANCE_KM + series(MOON_LONGITUDE_DISTANCE, 5, a, cos) / 1000,
  };
}

/** A body at ecliptic `longitude`, `latitude` (degrees), `distanceKm` away, as x, y, z (km) on the equator of date. */
function equatorial({ longitude, latitude, distanceKm }, epsilon) {
  const x = distanceKm * cos(latitude) * cos(longitude);
  const y = distanceKm * cos(latitude) * sin(longitude);
  const z = distanceKm * sin(latitude);
  return { x, y: y * cos(epsilon) - z * sin(epsilon), z: y * sin(epsilon) + z * cos(epsilon) };
}

/**
 * Where the body at equatorial `body` (km from the Earth's centre) is seen from the ground at
 * geodetic `latDeg`, `lonDeg`, with Greenwich at sidereal angle `sidereal`: the observer's own
 * place on the ellipsoid is taken off (the parallax), then the direction is turned into east,
 * north and up. Geometric: no refraction.
 */
function horizon(body, latDeg, lonDeg, sidereal) {
  const local = sidereal + lonDeg;
  // The observer's geocentric place: its reduced latitude on the ellipsoid, at sea level.
  const reduced = Math.atan2((1 - EARTH_FLATTENING) * sin(latDeg), cos(latDeg));
  const x = body.x - EARTH_RADIUS_KM * Math.cos(reduced) * cos(local);
  const y = body.y - EARTH_RADIUS_KM * Math.cos(reduced) * sin(local);
  const z = body.z - EARTH_RADIUS_KM * (1 - EARTH_FLATTENING) * Math.sin(reduced);
  // Along the meridian: towards the observer's zenith and towards the pole.
  const outward = x * cos(local) + y * sin(local);
  const east = -x * sin(local) + y * cos(local);
  const north = -outward * sin(latDeg) + z * cos(latDeg);
  const up = outward * cos(latDeg) + z * sin(latDeg);
  return {
    azimuthDeg: normalizeDegrees(Math.atan2(east, north) / RAD),
    elevationDeg: Math.atan2(up, Math.hypot(east, north)) / RAD,
  };
}

/**
 * How much the air lifts a body at geometric elevation `h` (degrees), at 10 °C and 1010 hPa:
 * Sæmundsson's formula in arcminutes, with the small constant that makes it zero at the zenith.
 * Below the horizon nothing is seen through the air, so the value only has to stay smooth: it
 * is kept down to −1° and then shrinks in a straight line to none at −5°, so that a setting
 * body sinks without a jump.
 */
function refractionDeg(h) {
  if (h <= REFRACTION_END_DEG) return 0;
  const at = Math.max(h, REFRACTION_FLOOR_DEG);
  const arcminutes = 1.02 / Math.tan((at + 10.3 / (at + 5.11)) * RAD) + 0.0019279;
  const span = REFRACTION_FLOOR_DEG - REFRACTION_END_DEG;
  const fade = h >= REFRACTION_FLOOR_DEG ? 1 : (h - REFRACTION_END_DEG) / span;
  return (arcminutes / 60) * fade;
}

/** The geometric horizon place `place` with refraction added (at most 90°). */
function seen(place) {
  return {
    azimuthDeg: place.azimuthDeg,
    elevationDeg: Math.min(90, place.elevationDeg + refractionDeg(place.elevationDeg)),
  };
}

/** The Earth's orientation at `date`: centuries from J2000.0, nutation, obliquity, sidereal angle. */
function frame(date) {
  const jd = julianDays(date);
  const T = (jd.tt - JD_J2000) / DAYS_PER_CENTURY;
  const nutated = nutation(T);
  const epsilon = obliquity(T, nutated);
  return { jd, T, nutated, epsilon, sidereal: siderealTime(jd.ut, T, nutated, epsilon) };
}

/**
 * Where the sun is, seen from (`latDeg`, `lonDeg`: degrees, WGS-84, north and east positive)
 * at the Date `date`: `azimuthDeg`, true (from geographic north, clockwise, in [0, 360)), and
 * `elevationDeg` above the horizon, in [−90, 90], with standard refraction (10 °C, 1010 hPa):
 * the apparent elevation above the horizon; below it the refraction fades out, and from −5°
 * down the elevation is geometric. Within a few hundredths of a degree from 1990 to 2100.
 */
export function sunPosition(date, latDeg, lonDeg) {
  const f = frame(date);
  const sun = sunEcliptic(f.jd.tt - JD_J2000, f.nutated);
  return seen(horizon(equatorial(sun, f.epsilon), latDeg, lonDeg, f.sidereal));
}

/**
 * Where the moon is, as `sunPosition` gives the sun, but topocentric: seen from the observer's
 * place, not the Earth's centre, which moves it by up to a degree. Within about 0.05°. Also
 * its illuminated fraction `phase`, from 0 (new) to 1 (full), and `waxing`, true from new to
 * full (while it moves away from the sun, lit on its western side).
 */
export function moonPosition(date, latDeg, lonDeg) {
  const f = frame(date);
  const moon = moonEcliptic(f.T, f.nutated);
  const sun = sunEcliptic(f.jd.tt - JD_J2000, f.nutated);
  const place = seen(horizon(equatorial(moon, f.epsilon), latDeg, lonDeg, f.sidereal));
  // The phase angle, sun–moon–Earth, from the elongation, moon–Earth–sun.
  const elongation = Math.acos(Math.max(-1, Math.min(1, cos(moon.latitude) * cos(moon.longitude - sun.longitude))));
  const phaseAngle = Math.atan2(
    sun.distanceKm * Math.sin(elongation),
    moon.distanceKm - sun.distanceKm * Math.cos(elongation),
  );
  return {
    ...place,
    phase: (1 + Math.cos(phaseAngle)) / 2,
    waxing: normalizeDegrees(moon.longitude - sun.longitude) < 180,
  };
}
