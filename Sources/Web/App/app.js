// The radar in your hand: the page aviator-adsb serves at `/`. It reads the daemon's feed over
// WebSocket, draws the sky on a retro scope that turns with the phone, and lists the aircraft
// for screen readers. Plain modules, no build step, nothing from another site.

import { normalizeDegrees } from "./angles.js";
import { Card } from "./card.js";
import { Compass, declinationLabel } from "./compass.js";
import { Feed } from "./feed.js";
import { Gestures } from "./gestures.js";
import { passAround, traceToPoints } from "./history.js";
import { Chime, Awake, kidShows } from "./kid.js";
import { AircraftList } from "./list.js";
import { Location } from "./location.js";
import { THEMES } from "./palette.js";
import { localKm } from "./projection.js";
import { Radar } from "./radar.js";
import { Rewind, getJSON } from "./rewind.js";
import { RANGE_MAX_KM, RANGE_MIN_KM, clamp, loadSettings, saveSettings } from "./settings.js";
import { Sky } from "./sky.js";
import { SkyView } from "./skyview.js";
import { bindControls } from "./controls.js";

const $ = (id) => document.getElementById(id);

const settings = loadSettings();
const sky = new Sky();
const radar = new Radar($("radar"), $("face"), $("sweep"));
const compass = new Compass(settings.headingDeg);
const chime = new Chime();
const awake = new Awake();
const status = {
  state: "connecting", source: null, error: null, count: 0, observer: null, receiver: null, rewinding: false,
};
/** `?measure` in the address: each drawn frame leaves a performance measure (for tests). */
const measuring = new URLSearchParams(location.search).has("measure");
let selected = null;
let positionsAt = 0;

const list = new AircraftList($("list"), $("announce"), (icao) => choose(icao));
const card = new Card({
  card: $("card"), close: $("card-close"), title: $("card-title"), kind: $("card-kind"),
  altitude: $("card-altitude"), speed: $("card-speed"), distance: $("card-distance"),
  route: $("card-route"), arrow: $("card-arrow"), where: $("card-where"), turn: $("card-turn"),
}, () => choose(null));

const skyView = new SkyView({
  root: $("sky"), video: $("sky-camera"), grid: $("sky-grid"), markers: $("sky-markers"), arrows: $("sky-arrows"),
  sun: $("sky-sun"), moon: $("sky-moon"), lookUp: $("look-up"), status: $("sky-status"), heading: $("sky-heading"),
  hint: $("sky-hint"), accuracy: $("sky-accuracy"), accuracyText: $("sky-accuracy-text"), calibrate: $("sky-calibrate"),
  compass: $("sky-compass"),
}, {
  choose: (icao) => choose(icao),
  observer: () => status.observer ?? status.receiver,
  chime: () => chime.play(),
  enableCompass: () => compass.enable(),
});

const feed = new Feed({
  onState(state) {
    status.state = state;
    if (state !== "open") status.error = null;
    showStatus();
  },
  onHello(message) {
    status.receiver = message.receiver ?? null;
    showDeclination(message.declination_deg);
    status.source = message.source;
    sky.reset();
    list.reset();
    showStatus();
  },
  onFrame(frame) {
    if (!rewind.active) showFrame(frame, 1);
  },
  onError(text) {
    status.error = text;
    showStatus();
  },
  onView(message) {
    showDeclination(message.declination_deg);
  },
});

/**
 * Draws a frame, live or rewound: `rate` is how many seconds of its sky pass in a second (1
 * live, the rewind's speed, 0 while it is paused).
 */
function showFrame(frame, rate) {
  const arrived = sky.update(frame, performance.now(), settings.chimeKm, rate);
  status.count = frame.aircraft.length;
  status.source = frame.source;
  status.error = null;
  list.update(sky, frame.seq);
  const chimes = settings.kid && !rewind.active;
  if (chimes && arrived.some((track) => kidShows(track.data, settings.kidGround))) chime.play();
  if (selected && !sky.tracks.has(selected)) choose(null);
  showStatus();
}

const rewind = new Rewind({
  root: $("rewind"), when: $("rewind-when"), slider: $("rewind-time"), play: $("rewind-play"),
  speed: $("rewind-speed"), live: $("rewind-live"),
}, {
  observer: () => status.observer ?? status.receiver,
  view: () => viewFields(),
  onFrame: showFrame,
  onActive(active, problem) {
    status.rewinding = active;
    status.error = problem;
    sky.reset();
    list.reset();
    document.body.classList.toggle("rewinding", active);
    showStatus();
  },
});
document.addEventListener("rewind", (event) => rewind.start(Number(event.detail?.time)));

/** The compass corrects by the declination at the observer, and the settings say by how much. */
function showDeclination(degrees) {
  compass.setDeclination(degrees);
  skyView.setDeclination(degrees);
  $("declination").textContent = declinationLabel(compass.declinationDeg);
}

const place = new Location((observer) => {
  status.observer = observer;
  sky.reset();
  showTrack(selected);
  if (rewind.active) rewind.step();
  feed.setView({ observer });
  showStatus();
}, (problem) => {
  status.error = problem;
  setPressed($("locate"), false);
  setPressed($("sky-locate"), false);
  settings.useLocation = false;
  saveSettings(settings);
  showStatus();
});

function showStatus() {
  let text;
  if (status.state !== "open") {
    text = "waiting for aviator-adsb…";
  } else if (status.error) {
    text = status.error;
  } else if (status.source === null) {
    text = "connected";
  } else {
    const from = status.observer ? "from here" : "from the receiver";
    text = `${status.count} aircraft · ${status.rewinding ? "rewind" : status.source} · ${from}`;
  }
  const element = $("status");
  if (element.textContent !== text) element.textContent = text;
  document.body.classList.toggle("offline", status.state !== "open");
}

function setPressed(button, pressed) {
  button.setAttribute("aria-pressed", String(pressed));
}

/** Selects an aircraft (null: none) and shows its card, except in kid mode, and its track. */
function choose(icao) {
  const changed = icao !== selected;
  selected = icao;
  card.show(icao !== null && !settings.kid ? icao : null);
  if (changed) showTrack(icao);
}

/**
 * Draws the stored pass of aircraft `icao` under it on the scope, coloured by altitude, when
 * the daemon keeps a history (without one, or for none selected, no track).
 */
async function showTrack(icao) {
  sky.setTrack(null);
  $("radar").dataset.trackPoints = "0";
  const observer = status.observer ?? status.receiver;
  if (!icao || !observer || !/^[0-9a-f]{6}$/.test(icao)) return;
  let points;
  try {
    points = traceToPoints(await getJSON(`data/history/trace?hex=${icao}`));
  } catch {
    return;
  }
  if (selected !== icao) return;
  const moment = rewind.active ? rewind.clock.time : Date.now() / 1000;
  const flat = [];
  for (const point of passAround(points, moment)) {
    const { e, n } = localKm(point.lat, point.lon, observer);
    flat.push(e, n, point.ground ? 0 : point.alt);
  }
  sky.setTrack(flat);
  $("radar").dataset.trackPoints = String(flat.length / 3);
}

/** The view filters and range as the feed protocol wants them. */
function viewFields() {
  return {
    range_km: Math.round(settings.rangeKm * 100) / 100,
    min_alt_ft: settings.minAltFt,
    max_alt_ft: settings.maxAltFt,
    max_distance_km: settings.maxDistanceKm,
    hide_on_ground: settings.hideOnGround,
  };
}

/** Zooms in by `factor` (below 1: out); the range is kept to three significant digits. */
function zoomBy(factor) {
  const range = Number((settings.rangeKm / factor).toPrecision(3));
  settings.rangeKm = clamp(range, RANGE_MIN_KM, RANGE_MAX_KM, settings.rangeKm);
  apply();
}

/** Applies the settings to the page and the feed, and remembers them. */
function apply() {
  settings.rangeKm = clamp(settings.rangeKm, RANGE_MIN_KM, RANGE_MAX_KM, 50);
  radar.setRange(settings.rangeKm);
  radar.setTheme(settings.sun ? "sun" : "night");
  radar.setKid(settings.kid, settings.kidGround);
  document.body.classList.toggle("sun", settings.sun);
  document.body.classList.toggle("kid", settings.kid);
  document.querySelector('meta[name="theme-color"]').content = (settings.sun ? THEMES.sun : THEMES.night).background;
  $("radar").dataset.rangeKm = String(settings.rangeKm);
  controls?.showRange();
  awake.set(settings.kid);
  setPressed($("sky-kid"), settings.kid);
  skyView.relayout();
  setPressed($("sky-locate"), settings.useLocation);
  if (settings.kid) choose(selected);
  feed.setView(viewFields());
  if (rewind.active) rewind.step();
  saveSettings(settings);
}

const controls = bindControls({
  settings, apply, compass, chime, place, setPressed,
  zoom: zoomBy,
});

new Gestures($("radar"), {
  tap(x, y) {
    const track = radar.hit(sky, x, y);
    choose(track ? track.icao : null);
  },
  turn(degrees) {
    compass.turnBy(degrees);
  },
  turnEnd() {
    settings.headingDeg = Math.round(compass.target * 100) / 100;
    saveSettings(settings);
  },
  zoom: zoomBy,
}, () => ({ x: radar.cx / radar.ratio, y: radar.cy / radar.ratio }));

// The loop: turning and motion are drawn at the display's rate, not the feed's.
let last = performance.now();
let shownHeading = null;
let compassShown = null;
// The next frame is asked for before this one is drawn, and a drawing that throws is
// logged (the first few times) and skipped: one bad frame must never stop the radar.
let failedFrames = 0;
function frame(now) {
  requestAnimationFrame(frame);
  try {
    drawFrame(now);
  } catch (error) {
    failedFrames += 1;
    if (failedFrames <= 3) console.error("radar frame failed:", error);
  }
}

function drawFrame(now) {
  const started = performance.now();
  const heading = compass.tick(now - last);
  last = now;
  feed.setHeading(heading);
  if (skyView.isOpen) {
    const looking = skyView.draw(now, sky, {
      kid: settings.kid, kidGround: settings.kidGround, selected, theme: radar.theme, fovDeg: settings.skyFovDeg,
    });
    if (!card.update(now, sky, looking, radar.theme)) choose(null);
    if (measuring) performance.measure("radar-frame", { start: started, end: performance.now() });
    return;
  }
  radar.draw(now, sky, heading, { labels: settings.labels, kid: settings.kid, selected });
  const whole = Math.round(heading) % 360;
  if (whole !== shownHeading || compass.active !== compassShown) {
    shownHeading = whole;
    // The Compass button is for when no compass speaks up by itself (iOS asks for a tap).
    compassShown = compass.active;
    $("compass").hidden = compassShown;
    $("heading").textContent = `HDG ${String(whole).padStart(3, "0")}° true${compass.active ? "" : " (drag to turn)"}`;
    $("radar").dataset.headingDeg = String(whole);
  }
  if (!card.update(now, sky, heading, radar.theme)) choose(null);
  if (now - positionsAt > 250) {
    positionsAt = now;
    list.markPositions(sky, radar.pageLeft, radar.pageTop);
  }
  if (measuring) performance.measure("radar-frame", { start: started, end: performance.now() });
}

/** Opens the sky view (and its address, so a reload or a shortcut comes back to it). */
function openSky() {
  if (!place.on) $("locate").click();
  skyView.open(compass.heading);
  document.body.classList.add("sky-open");
  setView("sky");
}

function closeSky() {
  skyView.close();
  document.body.classList.remove("sky-open");
  setView(null);
}

function setView(name) {
  const url = new URL(location.href);
  if (name) url.searchParams.set("view", name);
  else url.searchParams.delete("view");
  history.replaceState(null, "", url);
}

$("open-sky").addEventListener("click", openSky);
$("close-sky").addEventListener("click", closeSky);
$("sky-kid").addEventListener("click", () => $("kid").click());
$("sky-locate").addEventListener("click", () => $("locate").click());
$("sky-settings").addEventListener("click", () => $("open-settings").click());

apply();
compass.listen();
if (settings.useLocation) place.start();
setPressed($("locate"), settings.useLocation);
feed.setHeading(normalizeDegrees(settings.headingDeg));
feed.connect();
requestAnimationFrame(frame);
if (new URLSearchParams(location.search).get("view") === "sky") openSky();
// `?rewind=SECONDS` (since 1970) opens the radar rewound to that moment.
const rewindTo = Number(new URLSearchParams(location.search).get("rewind"));
if (rewindTo > 0) rewind.start(rewindTo);

if ("serviceWorker" in navigator && window.isSecureContext) {
  navigator.serviceWorker.register("sw.js").catch(() => {
    // Offline use is a bonus; the radar works without it.
  });
}
