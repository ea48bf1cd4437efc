// The buttons and the settings panel: zoom, compass, location, kid mode, the altitude and
// distance sliders, the toggles. Every change goes through `apply`, which updates the radar,
// the feed's view and local storage.

import { Compass } from "./compass.js";
import { RANGE_MAX_KM, RANGE_MIN_KM } from "./settings.js";

const $ = (id) => document.getElementById(id);

/** The range slider is logarithmic: equal steps zoom by equal factors. */
export const rangeToSlider = (km) => Math.round((100 * Math.log(km / RANGE_MIN_KM)) / Math.log(RANGE_MAX_KM / RANGE_MIN_KM));
/**
 * The range at a slider position, to three significant figures: each step is 7% of the range,
 * so tenths of a kilometre alone would give the lowest steps one value (1.07 and 1.15 km both
 * 1.1) and the thumb would snap back from the second.
 */
export const sliderToRange = (value) => Number((RANGE_MIN_KM * (RANGE_MAX_KM / RANGE_MIN_KM) ** (value / 100)).toPrecision(3));
/** Zoom buttons change the range by this factor. */
const ZOOM_STEP = 1.5;

const feet = new Intl.NumberFormat("en");

/**
 * Wires the controls. `context`: `settings`, `apply()`, `zoom(factor)`, `compass`, `chime`,
 * `place` (the location), `setPressed(button, pressed)`. Returns `showRange()`, which brings
 * the range slider up to date.
 */
export function bindControls({ settings, apply, zoom, compass, chime, place, setPressed }) {
  $("zoom-in").addEventListener("click", () => zoom(ZOOM_STEP));
  $("zoom-out").addEventListener("click", () => zoom(1 / ZOOM_STEP));

  // The compass: on iOS a tap must ask; elsewhere it listens from the start.
  const compassButton = $("compass");
  compassButton.addEventListener("click", async () => {
    const granted = await compass.enable();
    settings.useCompass = granted;
    setPressed(compassButton, granted);
    apply();
  });
  if (settings.useCompass && !Compass.needsPermission()) compass.listen();

  $("locate").addEventListener("click", () => {
    settings.useLocation = !place.on;
    if (settings.useLocation) place.start();
    else place.stop();
    setPressed($("locate"), settings.useLocation);
    apply();
  });

  $("kid").addEventListener("click", () => {
    settings.kid = !settings.kid;
    if (settings.kid) chime.unlock();
    setPressed($("kid"), settings.kid);
    apply();
  });
  setPressed($("kid"), settings.kid);
  // A tap anywhere wakes the chime's audio after a reload in kid mode.
  document.addEventListener("pointerdown", () => { if (settings.kid) chime.unlock(); }, { once: false, passive: true });

  panel($("open-settings"), $("settings"), $("close-settings"));
  const listButton = $("open-list");
  const aircraft = $("aircraft");
  listButton.addEventListener("click", () => {
    const open = aircraft.classList.toggle("closed") === false;
    listButton.setAttribute("aria-expanded", String(open));
  });

  const range = $("range");
  const showRange = () => {
    range.value = String(rangeToSlider(settings.rangeKm));
    $("range-value").textContent = `${settings.rangeKm} km`;
  };
  range.addEventListener("input", () => {
    settings.rangeKm = sliderToRange(Number(range.value));
    apply();
  });

  // Sliders at their ends mean "no filter".
  slider("min-alt", () => settings.minAltFt ?? 0, (value) => { settings.minAltFt = value <= 0 ? null : value; },
    () => (settings.minAltFt == null ? "any" : `${feet.format(settings.minAltFt)} ft`));
  slider("max-alt", () => settings.maxAltFt ?? 45000, (value) => { settings.maxAltFt = value >= 45000 ? null : value; },
    () => (settings.maxAltFt == null ? "any" : `${feet.format(settings.maxAltFt)} ft`));
  slider("max-distance", () => settings.maxDistanceKm ?? 400,
    (value) => { settings.maxDistanceKm = value >= 400 ? null : value; },
    () => (settings.maxDistanceKm == null ? "any" : `${settings.maxDistanceKm} km`));
  slider("chime-km", () => settings.chimeKm, (value) => { settings.chimeKm = value; }, () => `${settings.chimeKm} km`);
  slider("sky-fov", () => settings.skyFovDeg, (value) => { settings.skyFovDeg = value; }, () => `${settings.skyFovDeg}°`);

  toggle("hide-ground", "hideOnGround");
  toggle("kid-ground", "kidGround");
  toggle("labels", "labels");
  toggle("sun", "sun");

  function slider(id, read, write, describe) {
    const input = $(id);
    const output = $(`${id}-value`);
    input.value = String(read());
    output.textContent = describe();
    input.addEventListener("input", () => {
      write(Number(input.value));
      output.textContent = describe();
      apply();
    });
  }

  function toggle(id, key) {
    const input = $(id);
    input.checked = settings[key];
    input.addEventListener("change", () => {
      settings[key] = input.checked;
      apply();
    });
  }

  // The range readout follows pinches and buttons too: `apply` calls it.
  return { showRange };
}

/** A panel opened by one button and closed by another (or Escape), focus moved sensibly. */
function panel(opener, element, closer) {
  const set = (open) => {
    element.hidden = !open;
    opener.setAttribute("aria-expanded", String(open));
    (open ? element.querySelector("input") : opener)?.focus();
  };
  opener.addEventListener("click", () => set(element.hidden));
  closer.addEventListener("click", () => set(false));
  element.addEventListener("keydown", (event) => { if (event.key === "Escape") set(false); });
}
