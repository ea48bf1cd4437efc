// Where an aircraft goes on the scope, and how large. The feed gives each aircraft's compass
// bearing and ground distance from the observer; the radar turns them into km east and north,
// turns those with the heading so that the way the phone points is at the top, and sizes the
// icon by the feed's `scale` (large when low, from 0.7 to 2) if it flies, small if it is on
// the ground.

/** An aircraft's length at `scale` 1, in CSS pixels. */
const ICON_CSS_PX = 17;
/**
 * The scale of an aircraft on the ground: below the smallest in the air (0.7), so that an
 * airport's parked and taxiing aircraft do not outshine those flying (the feed gives them
 * the largest, 2, as they are low).
 */
export const GROUND_SCALE = 0.5;
/** Kid mode's icons are this much larger. */
const KID_FACTOR = 1.7;
/** The plane fills the middle 44 units of its sprite's 64-unit box. */
const SPRITE_BOX = 64;
const PLANE_SPAN = 44;
/** Sprites are square, this many device pixels at least and at most. */
const SPRITE_MIN_PX = 8;
const SPRITE_MAX_PX = 4095;

/**
 * The plane's outline, nose up, in a 64-unit box centred on 0 (x, y pairs): wings, then the
 * tailplane. The scope's sprites and the sky view's markers draw it.
 */
export const PLANE_OUTLINE = [
  0, -22, 3.5, -14, 3.5, -5, 20, 5, 20, 9, 3.5, 4, 3, 14, 9, 19, 9, 22, 0, 19.5,
  -9, 22, -9, 19, -3, 14, -3.5, 4, -20, 9, -20, 5, -3.5, -5, -3.5, -14,
];

/** Km east of the observer of a point `groundKm` away at the bearing `azimuthDeg`. */
export function eastKm(azimuthDeg, groundKm) {
  return groundKm * Math.sin(azimuthDeg * Math.PI / 180);
}

/** Km north of the observer of a point `groundKm` away at the bearing `azimuthDeg`. */
export function northKm(azimuthDeg, groundKm) {
  return groundKm * Math.cos(azimuthDeg * Math.PI / 180);
}

/**
 * Km right of the scope's centre of a point `e` km east and `n` km north, the scope turned so
 * that the heading is at the top; `cos` and `sin` are the heading's (worked out once a frame).
 */
export function rightKm(e, n, cos, sin) {
  return e * cos - n * sin;
}

/** Km up from the scope's centre, as for `rightKm`. */
export function upKm(e, n, cos, sin) {
  return e * sin + n * cos;
}

/** The scale to draw an aircraft (a feed object) at: the feed's own in the air, GROUND_SCALE on the ground. */
export function iconScale(data) {
  return data.on_ground === true ? GROUND_SCALE : data.scale;
}

/**
 * The side in device pixels of an aircraft's sprite: the feed's `scale` (1 when unknown) at
 * `ratio` device pixels per CSS pixel, larger in kid mode.
 */
export function spriteSide(scale, ratio, kid) {
  const length = ICON_CSS_PX * ratio * (kid ? KID_FACTOR : 1) * (scale ?? 1);
  return Math.min(SPRITE_MAX_PX, Math.max(SPRITE_MIN_PX, Math.round((length * SPRITE_BOX) / PLANE_SPAN)));
}

/** The length in device pixels of the plane drawn on a sprite `side` pixels square. */
export function planeLength(side) {
  return (side * PLANE_SPAN) / SPRITE_BOX;
}

/**
 * The sprite an icon turned by `turnDeg` (clockwise from the top) is drawn with: the nearest
 * of the turns in steps of `stepDeg`, as their index from 0 (straight up) to 360 / stepDeg − 1.
 */
export function turnStep(turnDeg, stepDeg) {
  const steps = 360 / stepDeg;
  return ((Math.round(turnDeg / stepDeg) % steps) + steps) % steps;
}

/** The earth's mean radius, km. */
const EARTH_KM = 6371.0088;

/**
 * A stored position (`lat`, `lon`, degrees) as km east and north of `observer` (`{lat,
 * lon}`) the way the scope places the feed's aircraft: the bearing and the distance along
 * the ground, here on a sphere (the feed works them out on the ellipsoid; the two differ by
 * a few tenths of a per cent, less than a pixel for a track drawn under the aircraft).
 */
export function localKm(lat, lon, observer) {
  const toRadians = Math.PI / 180;
  const p1 = observer.lat * toRadians;
  const p2 = lat * toRadians;
  const dl = (lon - observer.lon) * toRadians;
  const a = Math.sin((p2 - p1) / 2) ** 2 + Math.cos(p1) * Math.cos(p2) * Math.sin(dl / 2) ** 2;
  const groundKm = 2 * EARTH_KM * Math.asin(Math.min(1, Math.sqrt(a)));
  const bearing = Math.atan2(Math.sin(dl) * Math.cos(p2), Math.cos(p1) * Math.sin(p2) - Math.sin(p1) * Math.cos(p2) * Math.cos(dl));
  return { e: groundKm * Math.sin(bearing), n: groundKm * Math.cos(bearing) };
}
