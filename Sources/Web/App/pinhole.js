// The sky view's camera: a pinhole of known field of view at the phone's orientation. A
// direction in the sky (azimuth from true north, elevation) goes to a point on the screen, a
// point on the screen back to a direction (for calibrating), and a direction outside the
// picture to an arrow at the screen's edge. Pure maths: node tests it.
//
// The picture is the screen, `width` × `height` CSS pixels, its centre on the camera's axis.
// A direction at x right, y up and z ahead in the camera's frame lands at
// (width / 2 + f·x / z, height / 2 − f·y / z), f the focal length in CSS pixels.

const RADIANS = Math.PI / 180;

/**
 * The field of view across the long side of the picture, by default: a phone's main camera
 * (about 26 mm equivalent) sees some 65° to 68° across the long side of its sensor, and the
 * browser's video is usually a little cropped (stabilisation, 16:9): 60° is close for most.
 * Settings change it (docs/web.md, *Sky view*).
 */
export const DEFAULT_FOV_DEG = 60;
export const MIN_FOV_DEG = 30;
export const MAX_FOV_DEG = 100;

/** The unit vector (east, north, up) of a direction, into `out` (3 numbers). */
export function direction(azimuthDeg, elevationDeg, out = [0, 0, 0]) {
  const az = azimuthDeg * RADIANS;
  const el = elevationDeg * RADIANS;
  const level = Math.cos(el);
  out[0] = level * Math.sin(az);
  out[1] = level * Math.cos(az);
  out[2] = Math.sin(el);
  return out;
}

/**
 * The camera's axes in the earth's frame from the device's rotation matrix (orientation.js's
 * toMatrix) and the screen's turn from the natural orientation (`screen.orientation.angle`,
 * degrees): 9 numbers, the screen's right (0–2), its up (3–5) and the view ahead, out of the
 * back of the phone (6–8). With the screen turned θ anticlockwise, its right is the device's
 * (cos θ, −sin θ, 0) and its up (sin θ, cos θ, 0).
 */
export function cameraBasis(m, screenDeg, out = new Array(9)) {
  const c = Math.cos(screenDeg * RADIANS);
  const s = Math.sin(screenDeg * RADIANS);
  for (let row = 0; row < 3; row += 1) {
    const x = m[row * 3];
    const y = m[row * 3 + 1];
    const z = m[row * 3 + 2];
    out[row] = c * x - s * y;
    out[3 + row] = s * x + c * y;
    out[6 + row] = -z;
  }
  return out;
}

/**
 * The focal length in CSS pixels for a field of view `fovDeg` across the long side of the
 * picture. With a camera, the picture is its video (`videoWidth` × `videoHeight`) scaled to
 * cover the screen, cropped at two edges; without one, the screen itself.
 */
export function focalLength(width, height, fovDeg, videoWidth = 0, videoHeight = 0) {
  const tangent = Math.tan((fovDeg * RADIANS) / 2);
  if (videoWidth > 0 && videoHeight > 0) {
    const cover = Math.max(width / videoWidth, height / videoHeight);
    return (cover * Math.max(videoWidth, videoHeight)) / 2 / tangent;
  }
  return Math.max(width, height) / 2 / tangent;
}

/**
 * Projects the unit direction `d` (east, north, up) with the camera `basis`, focal length
 * `f`, on a `width` × `height` screen, into `out`: `x`, `y` (CSS pixels from the top left),
 * and the direction in the camera's frame, `right`, `up`, `ahead`. Returns whether it is in
 * front of the camera (x and y mean nothing otherwise).
 */
export function project(basis, d, f, width, height, out) {
  const right = basis[0] * d[0] + basis[1] * d[1] + basis[2] * d[2];
  const up = basis[3] * d[0] + basis[4] * d[1] + basis[5] * d[2];
  const ahead = basis[6] * d[0] + basis[7] * d[1] + basis[8] * d[2];
  out.right = right;
  out.up = up;
  out.ahead = ahead;
  if (ahead <= 1e-6) return false;
  out.x = width / 2 + (f * right) / ahead;
  out.y = height / 2 - (f * up) / ahead;
  return true;
}

/** Whether a projected point lies on the screen, `margin` pixels outside it counting as in. */
export function onScreen(point, width, height, margin = 0) {
  return point.ahead > 1e-6 && point.x >= -margin && point.x <= width + margin && point.y >= -margin
    && point.y <= height + margin;
}

/** The direction seen at the screen point (x, y): `{azimuthDeg, elevationDeg}`. */
export function unproject(basis, f, width, height, x, y) {
  const a = (x - width / 2) / f;
  const b = (height / 2 - y) / f;
  const e = basis[6] + a * basis[0] + b * basis[3];
  const n = basis[7] + a * basis[1] + b * basis[4];
  const u = basis[8] + a * basis[2] + b * basis[5];
  const length = Math.hypot(e, n, u);
  const azimuth = Math.atan2(e, n) / RADIANS;
  return { azimuthDeg: azimuth < 0 ? azimuth + 360 : azimuth, elevationDeg: Math.asin(u / length) / RADIANS };
}

/** The heading (azimuth, degrees) of the centre of the picture: where the camera looks. */
export function centreAzimuth(basis) {
  const azimuth = Math.atan2(basis[6], basis[7]) / RADIANS;
  return azimuth < 0 ? azimuth + 360 : azimuth;
}

/**
 * Which way to turn the phone towards a direction outside the picture, as a direction on the
 * screen (`right`, `up`), into `out`. In front of the camera it is where the direction lies
 * on the screen plane (the way the camera's axis turns towards it in the plane of the two).
 * Behind, the shortest turn would often be up over the top and down the other side, which
 * nobody does: people turn round. So behind it is sideways, the shorter way round in
 * azimuth (`turnDeg`, the signed difference from where the camera looks, as the card's
 * arrow), tilted by half the sine of the difference in elevation (`liftDeg`).
 */
export function turnWay(point, turnDeg, liftDeg, out) {
  if (point.ahead > 0) {
    out.right = point.right;
    out.up = point.up;
  } else {
    out.right = turnDeg < 0 ? -1 : 1;
    out.up = Math.sin(liftDeg * RADIANS) / 2;
  }
  return out;
}

/**
 * Where an arrow at the screen's edge goes for a way to turn (`right`, `up`, from `turnWay`),
 * into `out`: `x`, `y` on the edge `margin` pixels in, and `angleDeg`, which way it points,
 * clockwise from the screen's up.
 */
export function edgeArrow(right, up, width, height, margin, out) {
  let ux = right;
  let uy = up;
  const length = Math.hypot(ux, uy);
  if (length < 1e-9) {
    ux = 0;
    uy = 1;
  } else {
    ux /= length;
    uy /= length;
  }
  const halfW = Math.max(0, width / 2 - margin);
  const halfH = Math.max(0, height / 2 - margin);
  const reach = Math.min(Math.abs(ux) > 1e-9 ? halfW / Math.abs(ux) : Infinity,
    Math.abs(uy) > 1e-9 ? halfH / Math.abs(uy) : Infinity);
  out.x = width / 2 + ux * reach;
  out.y = height / 2 - uy * reach;
  out.angleDeg = (Math.atan2(ux, uy) / RADIANS + 360) % 360;
  return out;
}

/** The angle in degrees between two unit directions. */
export function separation(a, b) {
  return Math.acos(Math.max(-1, Math.min(1, a[0] * b[0] + a[1] * b[1] + a[2] * b[2]))) / RADIANS;
}
