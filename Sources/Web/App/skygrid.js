// The sky view's drawn sky: the horizon, a line of equal elevation every 10°, ticks along the
// horizon every 10° with the cardinal points, and the zenith, all through the same pinhole as
// the aircraft. Over the camera's picture it is a faint guide; with the camera refused or
// absent (a laptop) it is the whole sky, on a dark background. Redrawn only when the view
// turns, the size changes or the theme does.

import { direction, project } from "./pinhole.js";

/** Samples along each line of equal elevation, degrees of azimuth apart. */
const STEP_DEG = 3;
/** Points closer than this to the plane of the camera are left out: they run off to infinity. */
const NEAR_AHEAD = 0.05;
const CARDINALS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];
const FONT = 'ui-monospace, "DejaVu Sans Mono", monospace';

export class SkyGrid {
  constructor(canvas) {
    this.canvas = canvas;
    this.context = canvas.getContext("2d");
    this.width = 0;
    this.height = 0;
    this.ratio = 1;
    this.drawnBasis = new Float64Array(9);
    this.key = "";
    this.valid = false;
    this.point = { x: 0, y: 0, right: 0, up: 0, ahead: 0 };
    this.d = [0, 0, 0];
  }

  /** Follows the view's size (CSS pixels) and the screen's pixel ratio. */
  resize(width, height, ratio) {
    this.width = width;
    this.height = height;
    this.ratio = ratio;
    this.canvas.width = Math.max(1, Math.round(width * ratio));
    this.canvas.height = Math.max(1, Math.round(height * ratio));
    this.valid = false;
  }

  /** Draws the grid for the camera `basis` and focal length `f`, unless it is drawn already. */
  draw(basis, f, theme, camera, kid) {
    const key = `${theme.background}|${camera}|${kid}|${f.toFixed(2)}`;
    let same = this.valid && key === this.key;
    for (let i = 0; same && i < 9; i += 1) same = Math.abs(basis[i] - this.drawnBasis[i]) < 2e-5;
    if (same) return;
    this.key = key;
    this.valid = true;
    this.drawnBasis.set(basis);
    const c = this.context;
    const { ratio } = this;
    c.setTransform(ratio, 0, 0, ratio, 0, 0);
    c.clearRect(0, 0, this.width, this.height);
    if (!camera) {
      c.fillStyle = theme.background;
      c.fillRect(0, 0, this.width, this.height);
    }
    c.strokeStyle = theme.ring;
    c.fillStyle = theme.text;
    c.globalAlpha = camera ? 0.6 : 1;
    for (let elevation = 0; elevation < 90; elevation += 10) {
      c.lineWidth = elevation === 0 ? 2.5 : 1;
      c.globalAlpha = (camera ? 0.6 : 1) * (elevation === 0 ? 1 : 0.5);
      this.line(basis, f, elevation);
    }
    c.globalAlpha = camera ? 0.7 : 1;
    this.ticks(basis, f);
    if (!kid) this.labels(basis, f, theme, camera);
    c.globalAlpha = 1;
  }

  /** One line of equal elevation, broken where it passes behind the camera. */
  line(basis, f, elevation) {
    const c = this.context;
    const p = this.point;
    c.beginPath();
    let drawing = false;
    for (let azimuth = 0; azimuth <= 360; azimuth += STEP_DEG) {
      const front = project(basis, direction(azimuth, elevation, this.d), f, this.width, this.height, p);
      if (!front || p.ahead < NEAR_AHEAD) {
        drawing = false;
        continue;
      }
      if (drawing) c.lineTo(p.x, p.y);
      else c.moveTo(p.x, p.y);
      drawing = true;
    }
    c.stroke();
  }

  /** Ticks across the horizon every 10° of azimuth, longer every 45°, and the zenith's cross. */
  ticks(basis, f) {
    const c = this.context;
    const p = this.point;
    const a = { x: 0, y: 0, right: 0, up: 0, ahead: 0 };
    c.lineWidth = 1.5;
    c.beginPath();
    for (let azimuth = 0; azimuth < 360; azimuth += 10) {
      const long = azimuth % 45 === 0 ? 3 : 1.2;
      const low = project(basis, direction(azimuth, -long, this.d), f, this.width, this.height, p) && p.ahead > NEAR_AHEAD;
      const high = project(basis, direction(azimuth, long, this.d), f, this.width, this.height, a) && a.ahead > NEAR_AHEAD;
      if (!low || !high) continue;
      c.moveTo(p.x, p.y);
      c.lineTo(a.x, a.y);
    }
    if (project(basis, direction(0, 90, this.d), f, this.width, this.height, p) && p.ahead > NEAR_AHEAD) {
      c.moveTo(p.x - 10, p.y);
      c.lineTo(p.x + 10, p.y);
      c.moveTo(p.x, p.y - 10);
      c.lineTo(p.x, p.y + 10);
    }
    c.stroke();
  }

  /** The cardinal points under the horizon, and each line's elevation where it crosses the
   * line of azimuth at the centre of the view. */
  labels(basis, f, theme, camera) {
    const c = this.context;
    const p = this.point;
    c.textAlign = "center";
    c.textBaseline = "top";
    c.font = `bold 16px ${FONT}`;
    if (camera) {
      c.shadowColor = "#000";
      c.shadowBlur = 4;
    }
    for (let i = 0; i < CARDINALS.length; i += 1) {
      if (!project(basis, direction(i * 45, -4, this.d), f, this.width, this.height, p) || p.ahead < NEAR_AHEAD) continue;
      c.fillText(CARDINALS[i], p.x, p.y);
    }
    c.font = `12px ${FONT}`;
    c.textAlign = "left";
    c.textBaseline = "bottom";
    const azimuth = Math.atan2(basis[6], basis[7]) * 180 / Math.PI;
    for (let elevation = 10; elevation < 90; elevation += 10) {
      if (!project(basis, direction(azimuth + 6, elevation, this.d), f, this.width, this.height, p)) continue;
      if (p.ahead < NEAR_AHEAD) continue;
      c.fillText(`${elevation}°`, p.x + 3, p.y - 2);
    }
    c.shadowBlur = 0;
  }
}
