// Where the sun and the moon are in the sky. Not written yet: both say so, and the sky view
// goes on without them until they are.

/** The sun's true azimuth and elevation (degrees) at `date` from `latDeg`, `lonDeg`. */
export function sunPosition(date, latDeg, lonDeg) {
  throw new Error("almanac not yet available");
}

/** The moon's true azimuth and elevation (degrees), `phase` (0 to 1) and `waxing`. */
export function moonPosition(date, latDeg, lonDeg) {
  throw new Error("almanac not yet available");
}
