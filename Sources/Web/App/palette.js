// Colours of the two themes, and the altitude colours of trails and the legend.
// style.css draws the legend with the same stops (keep them in step).

/** Altitude colour stops, every 5000 ft from the ground to 40 000 ft and above. */
const ALTITUDE_STEP_FT = 5000;
const NIGHT_ALTITUDES = ["#ff5a3c", "#ff9f1c", "#ffd23f", "#b5f23d", "#39ff7a", "#2ef0c8", "#33c8ff", "#6f8cff", "#c77dff"];
const SUN_ALTITUDES = ["#c0140a", "#c25400", "#8a6d00", "#3d7a00", "#00802f", "#007a66", "#005f9e", "#2a3fbf", "#7a1fb8"];

/** The retro scope at night, and a high-contrast one for sunlight. */
export const THEMES = {
  night: {
    background: "#020d05",
    face: ["#062a12", "#03160a"],
    ring: "rgba(57, 255, 122, 0.55)",
    grid: "rgba(57, 255, 122, 0.18)",
    text: "#39ff7a",
    dimText: "rgba(57, 255, 122, 0.7)",
    blip: "#7dffa6",
    selected: "#ffd23f",
    sweep: [57, 255, 122],
    glow: 8,
    unknownAltitude: "#7a9a80",
    altitudes: NIGHT_ALTITUDES,
  },
  sun: {
    background: "#ffffff",
    face: ["#ffffff", "#f2f2f2"],
    ring: "#000000",
    grid: "rgba(0, 0, 0, 0.35)",
    text: "#000000",
    dimText: "#000000",
    blip: "#000000",
    selected: "#c0140a",
    sweep: [0, 0, 0],
    glow: 0,
    unknownAltitude: "#555555",
    altitudes: SUN_ALTITUDES,
  },
};

/** The colour index of an altitude (feet, or null when unknown: the last index + 1). */
export function altitudeBucket(feet) {
  if (feet == null) return NIGHT_ALTITUDES.length;
  const index = Math.floor(Math.max(0, feet) / ALTITUDE_STEP_FT);
  return Math.min(index, NIGHT_ALTITUDES.length - 1);
}

/** The colour of a bucket in a theme. */
export function bucketColor(theme, bucket) {
  return bucket >= theme.altitudes.length ? theme.unknownAltitude : theme.altitudes[bucket];
}
