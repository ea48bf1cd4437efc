// "Use my location": the phone's position becomes the view's observer, so bearings and
// elevations are the ones seen from where the phone is, not from the antenna.

/** Moves smaller than this (metres) are not worth a new view. */
const MOVE_M = 25;

/** Metres between two positions (short distances: an equirectangular approximation suffices). */
export function metresBetween(a, b) {
  const radians = Math.PI / 180;
  const x = (b.lon - a.lon) * radians * Math.cos(((a.lat + b.lat) / 2) * radians);
  const y = (b.lat - a.lat) * radians;
  return Math.hypot(x, y) * 6371000;
}

export class Location {
  /** @param {(observer: object|null) => void} onObserver called with the view's observer. */
  constructor(onObserver, onProblem) {
    this.onObserver = onObserver;
    this.onProblem = onProblem;
    this.watch = null;
    this.sent = null;
  }

  get on() {
    return this.watch !== null;
  }

  start() {
    if (this.watch !== null) return;
    if (!("geolocation" in navigator)) {
      this.onProblem("this browser cannot tell where it is");
      return;
    }
    this.watch = navigator.geolocation.watchPosition(
      (position) => this.moved(position.coords),
      (error) => {
        this.onProblem(error.code === error.PERMISSION_DENIED ? "location not allowed" : "location unavailable");
      },
      { enableHighAccuracy: true, maximumAge: 10000, timeout: 30000 },
    );
  }

  stop() {
    if (this.watch !== null) navigator.geolocation.clearWatch(this.watch);
    this.watch = null;
    this.sent = null;
    this.onObserver(null);
  }

  moved(coords) {
    const here = { lat: coords.latitude, lon: coords.longitude };
    if (!Number.isFinite(here.lat) || !Number.isFinite(here.lon)) return;
    // Height above the WGS-84 ellipsoid, as the feed wants it, when the phone knows it.
    if (Number.isFinite(coords.altitude)) here.alt_m = Math.min(15000, Math.max(-600, Math.round(coords.altitude)));
    if (this.sent && metresBetween(this.sent, here) < MOVE_M && Math.abs((this.sent.alt_m ?? 0) - (here.alt_m ?? 0)) < MOVE_M) {
      return;
    }
    this.sent = here;
    this.onObserver({ lat: Math.round(here.lat * 1e6) / 1e6, lon: Math.round(here.lon * 1e6) / 1e6, ...(here.alt_m === undefined ? {} : { alt_m: here.alt_m }) });
  }
}
