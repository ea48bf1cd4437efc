// The radar page: one WebSocket to /feed (the daemon's own feed protocol), a canvas drawn
// from the latest frame, and a list of the aircraft for screen readers.

const canvas = document.getElementById("radar");
const status = document.getElementById("status");
const list = document.getElementById("list");
const context = canvas.getContext("2d");

let frame = null;
let socket = null;
let retryMs = 1000;

/** Opens the feed on this page's own host, and again after any loss (backing off to 30 s). */
function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(`${scheme}//${location.host}/feed`);
  socket.onopen = () => { retryMs = 1000; };
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = () => {
    status.textContent = "waiting for aviator-adsb…";
    setTimeout(connect, retryMs);
    retryMs = Math.min(retryMs * 2, 30000);
  };
}

/** Handles one message of the feed protocol. */
function receive(message) {
  switch (message.type) {
    case "hello":
      status.textContent = `connected · source ${message.source}`;
      break;
    case "frame":
      frame = message;
      status.textContent = `${message.aircraft.length} aircraft · ${message.source}`;
      updateList(message.aircraft);
      break;
    case "error":
      status.textContent = message.message;
      break;
  }
}

/** Rewrites the accessible list: nearest first, with where to look. */
function updateList(aircraft) {
  const sorted = [...aircraft].sort((a, b) => (a.ground_km ?? Infinity) - (b.ground_km ?? Infinity));
  list.replaceChildren(...sorted.map((plane) => {
    const item = document.createElement("li");
    const parts = [
      plane.callsign || plane.icao,
      plane.ground_km == null ? null : `${plane.ground_km.toFixed(1)} km`,
      plane.azimuth_deg == null ? null : `bearing ${Math.round(plane.azimuth_deg)}°`,
      plane.elevation_deg == null ? null : `${Math.round(plane.elevation_deg)}° up`,
      plane.alt_baro_ft == null ? null : `${plane.alt_baro_ft} ft`,
    ];
    item.textContent = parts.filter((part) => part !== null).join(", ");
    item.dataset.icao = plane.icao;
    return item;
  }));
}

/** Draws rings and aircraft at the display's frame rate. */
function draw() {
  const ratio = window.devicePixelRatio || 1;
  const width = canvas.clientWidth * ratio;
  const height = canvas.clientHeight * ratio;
  if (canvas.width !== width || canvas.height !== height) {
    canvas.width = width;
    canvas.height = height;
  }
  const radius = Math.min(width, height) * 0.45;
  const cx = width / 2;
  const cy = height / 2;
  context.fillStyle = "#021006";
  context.fillRect(0, 0, width, height);
  context.strokeStyle = "#1d7a3f";
  context.lineWidth = ratio;
  for (let ring = 1; ring <= 4; ring += 1) {
    context.beginPath();
    context.arc(cx, cy, (radius * ring) / 4, 0, 2 * Math.PI);
    context.stroke();
  }
  if (frame) {
    context.fillStyle = "#39ff7a";
    context.font = `${12 * ratio}px monospace`;
    for (const plane of frame.aircraft) {
      if (plane.x == null || plane.y == null) continue;
      const x = cx + plane.x * radius;
      const y = cy - plane.y * radius;
      const size = 4 * ratio * (plane.scale ?? 1);
      context.beginPath();
      context.arc(x, y, size, 0, 2 * Math.PI);
      context.fill();
      if (plane.callsign) context.fillText(plane.callsign, x + size + 2, y - size);
    }
  }
  requestAnimationFrame(draw);
}

connect();
requestAnimationFrame(draw);
