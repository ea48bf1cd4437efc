// Angles on the compass: degrees clockwise from north. The radar turns with the phone, so
// every turn is taken the shortest way round and every bearing is kept in [0, 360).

/** The signed difference `to − from` in degrees, in (−180, 180]. */
export function angleDifference(from, to) {
  const difference = (((to - from) % 360) + 540) % 360 - 180;
  return difference === -180 ? 180 : difference;
}

/** Degrees in [0, 360). */
export function normalizeDegrees(degrees) {
  const value = ((degrees % 360) + 360) % 360;
  return value === 360 ? 0 : value;
}

/** A heading as the feed's view carries it: in [0, 360), to a hundredth of a degree. */
export function headingHundredths(degrees) {
  const heading = Math.round(((degrees % 360) + 360) % 360 * 100) / 100;
  return heading === 360 ? 0 : heading;
}

/** How far the angle `angle` lies behind `sweep`, both radians turning clockwise: in [0, 2π). */
export function radiansBehind(sweep, angle) {
  return (((sweep - angle) % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI);
}
