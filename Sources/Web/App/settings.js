// The radar's settings, kept in local storage so the phone remembers them between visits.

import { DEFAULT_FOV_DEG, MAX_FOV_DEG, MIN_FOV_DEG } from "./pinhole.js";

const KEY = "aviator-adsb.settings";

/** What a first visit starts with. */
export const DEFAULTS = Object.freeze({
  rangeKm: 50,
  minAltFt: null,
  maxAltFt: null,
  maxDistanceKm: null,
  hideOnGround: false,
  labels: true,
  sun: false,
  kid: false,
  kidGround: false,
  chimeKm: 10,
  useLocation: false,
  useCompass: false,
  headingDeg: 0,
  skyFovDeg: DEFAULT_FOV_DEG,
});

/** Range limits of the feed protocol's view (and a sensible smallest zoom for a screen). */
export const RANGE_MIN_KM = 1;
export const RANGE_MAX_KM = 1000;

/** Clamps a number into [low, high]; anything else becomes `fallback`. */
export function clamp(value, low, high, fallback) {
  return typeof value === "number" && Number.isFinite(value) ? Math.min(high, Math.max(low, value)) : fallback;
}

/** Loads the stored settings, checked field by field; what is missing or wrong takes the default. */
export function loadSettings(storage = globalThis.localStorage) {
  let stored = {};
  try {
    stored = JSON.parse(storage?.getItem(KEY) ?? "{}") ?? {};
  } catch {
    stored = {};
  }
  const flag = (name) => (typeof stored[name] === "boolean" ? stored[name] : DEFAULTS[name]);
  const optional = (name, low, high) => (stored[name] == null ? null : clamp(stored[name], low, high, null));
  return {
    rangeKm: clamp(stored.rangeKm, RANGE_MIN_KM, RANGE_MAX_KM, DEFAULTS.rangeKm),
    minAltFt: optional("minAltFt", -2000, 100000),
    maxAltFt: optional("maxAltFt", -2000, 100000),
    maxDistanceKm: optional("maxDistanceKm", 0.1, 1000),
    hideOnGround: flag("hideOnGround"),
    labels: flag("labels"),
    sun: flag("sun"),
    kid: flag("kid"),
    kidGround: flag("kidGround"),
    chimeKm: clamp(stored.chimeKm, 1, 50, DEFAULTS.chimeKm),
    useLocation: flag("useLocation"),
    useCompass: flag("useCompass"),
    headingDeg: clamp(stored.headingDeg, 0, 359.99, DEFAULTS.headingDeg),
    skyFovDeg: clamp(stored.skyFovDeg, MIN_FOV_DEG, MAX_FOV_DEG, DEFAULTS.skyFovDeg),
  };
}

/** Stores the settings; a full or refused storage only loses the memory, never the radar. */
export function saveSettings(settings, storage = globalThis.localStorage) {
  try {
    storage?.setItem(KEY, JSON.stringify(settings));
  } catch {
    // Private browsing or a full quota: the settings last for this visit only.
  }
}
