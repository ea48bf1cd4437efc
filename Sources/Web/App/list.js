// The aircraft in view as a list, those flying first, nearest first, then those on the
// ground, for screen readers and for anyone who prefers words to a picture. Each item says
// callsign, distance, compass bearing, elevation and altitude; data attributes carry the same
// values as numbers, and where the aircraft and its callsign are drawn, for tests and tools.
// New arrivals are announced politely, a few at a time.

import { describeAltitude, formatDistance, formatBearing, formatElevation, typeCode } from "./words.js";

/** At most this many arrivals in one announcement; the rest are counted. */
const ANNOUNCE_NAMES = 3;

/**
 * The list's order of two tracks: aircraft flying (or not known to be on the ground) before
 * those on the ground, each nearest first (by the feed's ground distance; unknown last). At
 * an airport the nearest are parked: the ones worth looking up at come first.
 */
export function flyingFirst(a, b) {
  const ground = (a.data.on_ground === true ? 1 : 0) - (b.data.on_ground === true ? 1 : 0);
  return ground !== 0 ? ground : (a.data.ground_km ?? Infinity) - (b.data.ground_km ?? Infinity);
}

export class AircraftList {
  constructor(list, announcer, onChoose) {
    this.list = list;
    this.announcer = announcer;
    this.onChoose = onChoose;
    this.items = new Map();
    this.known = null;
    list.addEventListener("click", (event) => {
      const item = event.target.closest("li[data-icao]");
      if (item) this.onChoose(item.dataset.icao);
    });
    list.addEventListener("keydown", (event) => {
      const item = event.target.closest("li[data-icao]");
      if (item && (event.key === "Enter" || event.key === " ")) {
        event.preventDefault();
        this.onChoose(item.dataset.icao);
      }
    });
  }

  /** Rewrites the list from the sky after a frame. */
  update(sky, seq) {
    const tracks = [...sky.tracks.values()].sort(flyingFirst);
    const present = new Set();
    const arrived = [];
    let previous = null;
    for (const track of tracks) {
      const data = track.data;
      present.add(track.icao);
      let item = this.items.get(track.icao);
      if (!item) {
        item = document.createElement("li");
        item.tabIndex = 0;
        item.dataset.icao = track.icao;
        this.items.set(track.icao, item);
        if (this.known && !this.known.has(track.icao)) arrived.push(track);
      }
      const type = typeCode(data.identity);
      const text = [
        (data.callsign || `${track.icao.toUpperCase()} (no callsign)`) + (type ? ` ${type}` : ""),
        formatDistance(data.ground_km),
        data.azimuth_deg == null ? null : `bearing ${formatBearing(data.azimuth_deg)}`,
        data.elevation_deg == null ? null : formatElevation(data.elevation_deg),
        describeAltitude(data),
      ].filter((part) => part !== null).join(", ");
      if (item.textContent !== text) item.textContent = text;
      setData(item, "distanceKm", data.ground_km);
      setData(item, "azimuthDeg", data.azimuth_deg);
      setData(item, "elevationDeg", data.elevation_deg);
      setData(item, "altitudeFt", data.alt_baro_ft ?? data.alt_geo_ft);
      setData(item, "onGround", data.on_ground);
      // Keep the order with as few moves as possible.
      const expected = previous ? previous.nextSibling : this.list.firstChild;
      if (expected !== item) this.list.insertBefore(item, expected);
      previous = item;
    }
    for (const [icao, item] of this.items) {
      if (!present.has(icao)) {
        item.remove();
        this.items.delete(icao);
      }
    }
    this.list.dataset.seq = String(seq);
    this.list.dataset.count = String(tracks.length);
    this.known = present;
    if (arrived.length > 0) this.announce(arrived);
  }

  announce(arrived) {
    const names = arrived.slice(0, ANNOUNCE_NAMES).map((track) => {
      const data = track.data;
      return `${data.callsign || "an aircraft"} ${formatDistance(data.ground_km)} away`;
    });
    const more = arrived.length - names.length;
    this.announcer.textContent = `In view: ${names.join("; ")}${more > 0 ? `, and ${more} more` : ""}.`;
  }

  /** Writes where each aircraft is drawn (CSS pixels on the page; the canvas's corner is at
   * `left`, `top`), how large, the box of its callsign ("left,top,width,height", empty when
   * left out) and, in kid mode, the silhouette it is drawn with (empty otherwise) into its item. */
  markPositions(sky, left, top) {
    for (const track of sky.tracks.values()) {
      const item = this.items.get(track.icao);
      if (!item) continue;
      if (track.visible) {
        // Whole pixels, written only when they change: most aircraft move less than that.
        setData(item, "x", Math.round(left + track.screenX));
        setData(item, "y", Math.round(top + track.screenY));
        setData(item, "size", Math.round(track.screenSize * 10) / 10);
        setData(item, "silhouette", track.silhouette);
        setData(item, "label", track.labelled
          ? `${(left + track.labelX).toFixed(1)},${(top + track.labelY).toFixed(1)},${track.labelW.toFixed(1)},${track.labelH}`
          : null);
      } else if (item.dataset.x !== undefined) {
        delete item.dataset.x;
        delete item.dataset.y;
        delete item.dataset.size;
        delete item.dataset.label;
        delete item.dataset.silhouette;
      }
    }
  }

  /** Forgets the aircraft (after a reconnection the first frame is not news). */
  reset() {
    this.known = null;
  }
}

function setData(item, name, value) {
  const text = value == null ? "" : String(value);
  if (item.dataset[name] !== text) item.dataset[name] = text;
}
