// The aircraft the radar knows, in the observer's flat east/north frame (km), moved on between
// the feed's frames by dead reckoning so they glide at the display's frame rate instead of
// jumping once a second.
//
// Positions come from the feed's own projection (`azimuth_deg`, `ground_km`), so the picture
// agrees with every other client of the daemon; only the motion between frames is local.

import { altitudeBucket } from "./palette.js";
import { eastKm, northKm } from "./projection.js";

const KM_PER_KNOT_SECOND = 1.852 / 3600;
/** Dead reckoning stops after this long without a position: guessing further misleads. */
const MAX_EXTRAPOLATION_S = 10;
/** A new frame's correction is blended in over about this long instead of a visible jump. */
const BLEND_MS = 350;
/** Trail points kept per aircraft: about the last quarter of a minute at one frame a second. */
const TRAIL_POINTS = 15;
/** A position this far from where the aircraft was drawn starts a new trail (a new observer). */
const TRAIL_BREAK_KM = 5;

/** One aircraft: the feed's latest object plus what the radar works out from it. */
class Track {
  constructor(data, now, rate) {
    this.icao = data.icao;
    this.firstSeenAt = now;
    this.trail = [];
    this.correctionE = 0;
    this.correctionN = 0;
    this.near = false;
    this.update(data, now, rate);
  }

  /**
   * Takes a new frame's object; keeps the drawn position continuous. `rate`: seconds of the
   * sky's time per second (1 live; the rewind's speed, 0 while it is paused).
   */
  update(data, now, rate = 1) {
    let before = null;
    if (this.data) {
      this.locate(now);
      before = { e: this.drawE, n: this.drawN };
    }
    this.rate = rate;
    this.data = data;
    const azimuth = data.azimuth_deg ?? 0;
    const ground = data.ground_km ?? 0;
    this.placed = data.azimuth_deg != null && data.ground_km != null;
    this.e = eastKm(azimuth, ground);
    this.n = northKm(azimuth, ground);
    const moving = data.ground_speed_kt != null && data.track_deg != null && !data.on_ground && !data.stale;
    const speed = moving ? data.ground_speed_kt * KM_PER_KNOT_SECOND : 0;
    const track = (data.track_deg ?? 0) * Math.PI / 180;
    this.ve = speed * Math.sin(track);
    this.vn = speed * Math.cos(track);
    // The position was already this old when the frame was made.
    this.fixAt = now - ((data.seen_pos_s ?? 0) * 1000) / Math.max(rate, 1);
    this.frameAt = now;
    if (before) {
      this.correctionE = 0;
      this.correctionN = 0;
      this.locate(now);
      const jumpE = before.e - this.drawE;
      const jumpN = before.n - this.drawN;
      if (Math.hypot(jumpE, jumpN) > TRAIL_BREAK_KM) {
        this.trail.length = 0;
        this.correctionE = 0;
        this.correctionN = 0;
      } else {
        this.correctionE = jumpE;
        this.correctionN = jumpN;
      }
    }
    if (this.placed) {
      this.trail.push(this.e, this.n, data.alt_baro_ft ?? data.alt_geo_ft ?? null);
      if (this.trail.length > TRAIL_POINTS * 3) this.trail.splice(0, 3);
    }
  }

  /**
   * Works out where to draw it at `now` (performance.now() milliseconds) into `drawE` and
   * `drawN`, east and north in km (fields rather than a new object: this runs for every
   * aircraft on every displayed frame).
   */
  locate(now) {
    const rate = this.rate;
    const seconds = Math.min((Math.max(now - this.fixAt, 0) / 1000) * rate, MAX_EXTRAPOLATION_S * Math.max(rate, 1));
    let e = this.e + this.ve * seconds;
    let n = this.n + this.vn * seconds;
    if (this.correctionE !== 0 || this.correctionN !== 0) {
      const left = Math.exp(-(now - this.frameAt) / BLEND_MS);
      e += this.correctionE * left;
      n += this.correctionN * left;
    }
    this.drawE = e;
    this.drawN = n;
  }
}

/**
 * One path per altitude colour for the lines in `lines` (each flat km east, km north and
 * feet triples, oldest first): each segment takes the colour of the altitude at its end.
 */
function altitudePaths(lines) {
  const paths = Array.from({ length: altitudeBucket(null) + 1 }, () => null);
  for (const line of lines) {
    for (let i = 0; i + 3 < line.length; i += 3) {
      const bucket = altitudeBucket(line[i + 5]);
      const path = paths[bucket] ?? (paths[bucket] = new Path2D());
      path.moveTo(line[i], line[i + 1]);
      path.lineTo(line[i + 3], line[i + 4]);
    }
  }
  return paths;
}

export class Sky {
  constructor() {
    /** @type {Map<string, Track>} */
    this.tracks = new Map();
    this.seq = null;
    this.frameTime = null;
    this.frames = 0;
    /** @type {(Path2D|null)[]} trails by altitude colour (see buildTrails) */
    this.trailPaths = [];
    /** @type {(Path2D|null)[]} the selected aircraft's stored track, likewise (setTrack) */
    this.trackPaths = [];
  }

  /**
   * Takes a frame; returns the aircraft that came within `nearKm` since the last frame
   * (none on the first frame after a (re)connection: those were there already).
   */
  update(frame, now, nearKm, rate = 1) {
    const arrived = [];
    const present = new Set();
    const settled = this.frames > 0;
    for (const data of frame.aircraft) {
      if (typeof data?.icao !== "string") continue;
      present.add(data.icao);
      let track = this.tracks.get(data.icao);
      if (track) {
        track.update(data, now, rate);
      } else {
        track = new Track(data, now, rate);
        this.tracks.set(data.icao, track);
      }
      const near = data.ground_km != null && data.ground_km <= nearKm;
      if (near && !track.near && settled) arrived.push(track);
      track.near = near;
    }
    for (const icao of this.tracks.keys()) {
      if (!present.has(icao)) this.tracks.delete(icao);
    }
    this.seq = frame.seq;
    this.frameTime = frame.time;
    this.frames += 1;
    this.buildTrails();
    return arrived;
  }

  /**
   * The trails as one path per altitude colour, in km east and north: built once per feed
   * frame, then drawn on every displayed frame with a transform for the heading and zoom.
   */
  buildTrails() {
    this.trailPaths = altitudePaths(Array.from(this.tracks.values(), (track) => track.trail));
  }

  /**
   * The stored track of the selected aircraft (its whole pass, from the history), as flat
   * km east, km north and feet triples; null or too short to draw: none.
   */
  setTrack(points) {
    this.trackPaths = Array.isArray(points) && points.length >= 6 ? altitudePaths([points]) : [];
  }

  /** Forgets everything: a new connection or a new observer starts a new picture. */
  reset() {
    this.tracks.clear();
    this.frames = 0;
    this.trailPaths = [];
  }
}
