// Kid mode's friendly silhouettes: a helicopter looks like a helicopter, a balloon like a
// balloon, a wide-body is bigger than a small jet. Each is an SVG path in the sprites' 64-unit
// box centred on 0, nose up, the shape within the middle 44 units as the scope's plane is; the
// scope fills it on a canvas (as a Path2D) and the sky view sets it as an SVG path's `d`.
// Which one an aircraft gets is a pure function of its feed object, tested under node.

/**
 * The silhouettes by name: `path` (SVG path data), `size` (how large it is drawn against the
 * feed's scale, so a wide-body stands out and a light aircraft looks light), and `upright`
 * (drawn standing up whatever the track: a balloon has no nose to point).
 */
export const SILHOUETTES = Object.freeze({
  jet: Object.freeze({
    size: 1,
    upright: false,
    path: "M0,-22C2.5,-22 3.5,-19 3.5,-15L3.5,-4L20,6L20,9.5L3.5,5L3,14L8.5,18.5L8.5,21L0,19.5L-8.5,21L-8.5,18.5"
      + "L-3,14L-3.5,5L-20,9.5L-20,6L-3.5,-4L-3.5,-15C-3.5,-19 -2.5,-22 0,-22Z"
      + "M8.5,-1.5A1.5,1.5 0 0 1 11.5,-1.5L11.5,3.5L8.5,3.5Z M-8.5,-1.5A1.5,1.5 0 0 0 -11.5,-1.5L-11.5,3.5L-8.5,3.5Z",
  }),
  widebody: Object.freeze({
    size: 1.3,
    upright: false,
    path: "M0,-22C3,-22 4.5,-19 4.5,-14L4.5,-5L22,6L22,10L4.5,5L4,14L10,18.5L10,21.5L0,20L-10,21.5L-10,18.5"
      + "L-4,14L-4.5,5L-22,10L-22,6L-4.5,-5L-4.5,-14C-4.5,-19 -3,-22 0,-22Z"
      + "M6.5,-4A1.5,1.5 0 0 1 9.5,-4L9.5,1L6.5,1Z M13.5,0A1.5,1.5 0 0 1 16.5,0L16.5,5L13.5,5Z"
      + "M-6.5,-4A1.5,1.5 0 0 0 -9.5,-4L-9.5,1L-6.5,1Z M-13.5,0A1.5,1.5 0 0 0 -16.5,0L-16.5,5L-13.5,5Z",
  }),
  smalljet: Object.freeze({
    size: 0.85,
    upright: false,
    path: "M0,-22C2,-22 3,-18 3,-14L3,-2L17,5L17,8L3,4L2.5,15L8,19L8,21L0,20L-8,21L-8,19L-2.5,15L-3,4L-17,8"
      + "L-17,5L-3,-2L-3,-14C-3,-18 -2,-22 0,-22Z"
      + "M3,7L6,7A1.5,1.5 0 0 1 7.5,8.5L7.5,13L3,13Z M-3,7L-6,7A1.5,1.5 0 0 0 -7.5,8.5L-7.5,13L-3,13Z",
  }),
  prop: Object.freeze({
    size: 0.8,
    upright: false,
    path: "M-3,-17Q0,-20 3,-17L3,-9L21,-9Q22,-9 22,-8L22,-3Q22,-2 21,-2L3,-2L2,14L8,14L8,19L0,20L-8,19"
      + "L-8,14L-2,14L-3,-2L-21,-2Q-22,-2 -22,-3L-22,-8Q-22,-9 -21,-9L-3,-9Z"
      + "M-1,-20L1,-20L1,-17L-1,-17Z M-9,-22L9,-22Q10,-21 9,-20L-9,-20Q-10,-21 -9,-22Z",
  }),
  helicopter: Object.freeze({
    size: 0.9,
    upright: false,
    path: "M0,-16A8,10 0 0 1 0,4A8,10 0 0 1 0,-16Z M-1.6,2L1.6,2L1.2,19L-1.2,19Z M1,14.5L7,14.5L7,19L1,19Z"
      + "M-16.2,-19.8L13.8,10.2L16.2,7.8L-13.8,-22.2Z M16.2,-19.8L-13.8,10.2L-16.2,7.8L13.8,-22.2Z"
      + "M2.5,-6A2.5,2.5 0 1 1 -2.5,-6A2.5,2.5 0 1 1 2.5,-6Z",
  }),
  glider: Object.freeze({
    size: 1,
    upright: false,
    path: "M0,-20C1.8,-20 2.2,-17 2.2,-13L2,-6L21,-5Q22,-5 22,-4L22,-3.5L2,-1.5L1,16L7,16L7,18.5L-7,18.5L-7,16"
      + "L-1,16L-2,-1.5L-22,-3.5L-22,-4Q-22,-5 -21,-5L-2,-6L-2.2,-13C-2.2,-17 -1.8,-20 0,-20Z",
  }),
  balloon: Object.freeze({
    size: 1,
    upright: true,
    path: "M0,-22C9,-22 14,-15 14,-8C14,0 7,4 4,9L-4,9C-7,4 -14,0 -14,-8C-14,-15 -9,-22 0,-22Z"
      + "M2.8,9L4,9L4,15L2.8,15Z M-2.8,9L-4,9L-4,15L-2.8,15Z M-5,15L5,15L4.5,21L-4.5,21Z",
  }),
  drone: Object.freeze({
    size: 0.75,
    upright: false,
    path: "M-13,-11L11,13L13,11L-11,-13Z M13,-11L-11,13L-13,11L11,-13Z M-4,-4L4,-4L4,4L-4,4Z"
      + "M18.5,-12A6.5,6.5 0 1 0 5.5,-12A6.5,6.5 0 1 0 18.5,-12Z M-5.5,-12A6.5,6.5 0 1 0 -18.5,-12A6.5,6.5 0 1 0 -5.5,-12Z"
      + "M18.5,12A6.5,6.5 0 1 0 5.5,12A6.5,6.5 0 1 0 18.5,12Z M-5.5,12A6.5,6.5 0 1 0 -18.5,12A6.5,6.5 0 1 0 -5.5,12Z",
  }),
  fighter: Object.freeze({
    size: 0.9,
    upright: false,
    path: "M0,-22L2.5,-14L3,-6L18,10L18,13L4,12L5,16L9,19L9,21L2,20L0,21.5L-2,20L-9,21L-9,19L-5,16L-4,12L-18,13"
      + "L-18,10L-3,-6L-2.5,-14Z",
  }),
});

/** The silhouettes' names in a fixed order: a sprite's cache key holds the index. */
export const SILHOUETTE_NAMES = Object.freeze(Object.keys(SILHOUETTES));

/** The identity's class (docs/feed.md) to its silhouette. */
const BY_CLASS = Object.freeze({
  heavy: "widebody",
  medium_jet: "jet",
  small: "smalljet",
  light: "prop",
  helicopter: "helicopter",
  glider: "glider",
  balloon: "balloon",
  drone: "drone",
  military: "fighter",
});

/** The ADS-B emitter category to its silhouette, for aircraft whose class is not known. */
const BY_CATEGORY = Object.freeze({
  A1: "prop",
  A2: "smalljet",
  A3: "jet",
  A4: "jet",
  A5: "widebody",
  A6: "fighter",
  A7: "helicopter",
  B1: "glider",
  B2: "balloon",
  B4: "prop",
  B6: "drone",
});

/** What an aircraft without a class or a telling category is drawn as. */
export const DEFAULT_SILHOUETTE = "jet";

/**
 * The silhouette kid mode draws an aircraft (a feed object) with: by its identity's class
 * when known, else by its emitter category, else the jet.
 */
export function silhouetteOf(data) {
  const kind = data?.identity?.class;
  if (typeof kind === "string" && Object.hasOwn(BY_CLASS, kind)) return BY_CLASS[kind];
  const category = data?.category;
  if (typeof category === "string" && Object.hasOwn(BY_CATEGORY, category)) return BY_CATEGORY[category];
  return DEFAULT_SILHOUETTE;
}
