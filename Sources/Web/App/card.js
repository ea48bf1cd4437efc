// The card of a tapped aircraft: who it is, how high and fast, how far, its route when the
// daemon knows it, and where to look: a compass bearing and an elevation, with an arrow that
// turns with the phone until the aircraft is straight ahead.

import { angleDifference } from "./angles.js";
import {
  categoryName, describeAltitude, describeIdentity, describeRoute, describeSpeed, elevationPhrase, formatBearing, formatDistance,
  roundHalfAway, trend,
} from "./words.js";

/** Within this many degrees of straight ahead, the arrow says so instead of "turn". */
const AHEAD_DEG = 8;
/** Text on the card changes at most this often; the arrow follows every frame. */
const TEXT_INTERVAL_MS = 250;

export class Card {
  constructor(elements, onClose) {
    this.e = elements;
    this.icao = null;
    this.textAt = 0;
    this.arrowContext = elements.arrow.getContext("2d");
    this.arrowAngle = null;
    elements.close.addEventListener("click", () => onClose());
  }

  /** Shows the card for an aircraft (null hides it). */
  show(icao) {
    this.icao = icao;
    this.e.card.hidden = icao === null;
    this.textAt = 0;
    this.arrowAngle = null;
    if (icao === null) delete this.e.card.dataset.icao;
  }

  /** Brings the card up to date; returns false when its aircraft has gone. */
  update(now, sky, headingDeg, theme) {
    if (this.icao === null) return true;
    const track = sky.tracks.get(this.icao);
    if (!track) return false;
    const data = track.data;
    const relative = data.azimuth_deg == null ? null : angleDifference(headingDeg, data.azimuth_deg);
    this.drawArrow(relative, data.elevation_deg, theme);
    if (now - this.textAt < TEXT_INTERVAL_MS) return true;
    this.textAt = now;
    const e = this.e;
    e.card.dataset.icao = track.icao;
    e.card.dataset.seq = String(sky.seq);
    e.card.dataset.elevationDeg = data.elevation_deg == null ? "" : String(data.elevation_deg);
    e.card.dataset.azimuthDeg = data.azimuth_deg == null ? "" : String(data.azimuth_deg);
    setText(e.title, data.callsign || track.icao.toUpperCase());
    setText(e.kind, [describeIdentity(data.identity) ?? categoryName(data.category) ?? "aircraft", `ICAO ${track.icao}`,
      data.squawk ? `squawk ${data.squawk}` : null].filter(Boolean).join(" · "));
    const altitude = describeAltitude(data);
    const climbing = trend(data);
    setText(e.altitude, altitude ? (climbing ? `${altitude}, ${climbing}` : altitude) : "unknown");
    setText(e.speed, describeSpeed(data.ground_speed_kt) ?? "unknown");
    setText(e.distance, formatDistance(data.ground_km) ?? "unknown");
    setText(e.route, describeRoute(data.route) ?? "not known");
    if (data.azimuth_deg == null) {
      setText(e.where, "position unknown");
      setText(e.turn, "");
    } else {
      const elevation = data.elevation_deg == null ? "" : `, ${elevationPhrase(data.elevation_deg)}`;
      setText(e.where, `${formatBearing(data.azimuth_deg)}${elevation}`);
      setText(e.turn, turnAdvice(relative, data.elevation_deg));
    }
    return true;
  }

  /** The arrow: up is straight ahead; it points the way to turn. */
  drawArrow(relative, elevation, theme) {
    const angle = relative == null ? null : Math.round(relative);
    if (angle === this.arrowAngle) return;
    this.arrowAngle = angle;
    const c = this.arrowContext;
    const size = this.e.arrow.width;
    c.setTransform(1, 0, 0, 1, 0, 0);
    c.clearRect(0, 0, size, size);
    if (angle === null) return;
    c.translate(size / 2, size / 2);
    c.strokeStyle = theme.ring;
    c.lineWidth = 2;
    c.beginPath();
    c.arc(0, 0, size / 2 - 3, 0, 2 * Math.PI);
    c.stroke();
    c.rotate((angle * Math.PI) / 180);
    c.fillStyle = Math.abs(angle) <= AHEAD_DEG ? theme.selected : theme.text;
    c.beginPath();
    c.moveTo(0, -size / 2 + 8);
    c.lineTo(size / 5, -size / 12);
    c.lineTo(size / 14, -size / 12);
    c.lineTo(size / 14, size / 3);
    c.lineTo(-size / 14, size / 3);
    c.lineTo(-size / 14, -size / 12);
    c.lineTo(-size / 5, -size / 12);
    c.closePath();
    c.fill();
  }
}

/** "turn right 40°, look up 12°" or "straight ahead, look up 12°". */
export function turnAdvice(relative, elevation) {
  const turn = Math.abs(relative) <= AHEAD_DEG
    ? "straight ahead"
    : `turn ${relative > 0 ? "right" : "left"} ${Math.round(Math.abs(relative))}°`;
  if (elevation == null) return turn;
  const up = roundHalfAway(elevation);
  return up > 0 ? `${turn}, look up ${up}°` : `${turn}, low on the horizon`;
}

function setText(element, text) {
  if (element.textContent !== text) element.textContent = text;
}
