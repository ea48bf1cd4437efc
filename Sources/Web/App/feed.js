// The daemon's radar feed over WebSocket (docs/feed.md): hello, frame, view and error
// messages in, view commands out. Reconnects by itself, and sends the whole wanted view again
// on every new connection, so a restarted daemon sees the same radar.

import { angleDifference, headingHundredths } from "./angles.js";

/** Smallest change of heading worth a command, and the least time between two of them. */
const HEADING_STEP_DEG = 1;
const HEADING_INTERVAL_MS = 200;

export class Feed {
  /**
   * @param {object} handlers `onHello(message)`, `onFrame(message)`, `onError(text)`,
   *   `onState(state)` with state "connecting", "open" or "waiting", and optionally
   *   `onView(message)` for the acknowledgements of view commands.
   */
  constructor(handlers) {
    this.handlers = handlers;
    this.socket = null;
    this.retryMs = 500;
    this.wanted = {};
    this.sentHeading = null;
    this.lastHeadingAt = 0;
    this.headingTimer = 0;
    this.retryTimer = 0;
  }

  /** Opens the feed on this page's own host. */
  connect() {
    clearTimeout(this.retryTimer);
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    this.handlers.onState("connecting");
    let socket;
    try {
      socket = new WebSocket(`${scheme}//${location.host}/feed`);
    } catch {
      this.retry();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      this.retryMs = 500;
      this.handlers.onState("open");
      this.sentHeading = null;
      this.send({ type: "view", ...this.wanted });
      if (this.wanted.heading_deg != null) this.sentHeading = this.wanted.heading_deg;
    };
    socket.onmessage = (event) => this.receive(event.data);
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.handlers.onState("waiting");
      this.retry();
    };
  }

  /** Tries again after a pause that doubles up to 10 s, with a little jitter. */
  retry() {
    this.retryTimer = setTimeout(() => this.connect(), this.retryMs * (0.8 + Math.random() * 0.4));
    this.retryMs = Math.min(this.retryMs * 2, 10000);
  }

  /** Handles one message; anything unreadable is reported and skipped. */
  receive(text) {
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      this.handlers.onError("the feed sent something that is not JSON");
      return;
    }
    switch (message?.type) {
      case "hello": this.handlers.onHello(message); break;
      case "frame": if (Array.isArray(message.aircraft)) this.handlers.onFrame(message); break;
      case "error": this.handlers.onError(String(message.message)); break;
      case "view": this.handlers.onView?.(message); break;
      default: break; // future types
    }
  }

  /** Changes fields of the view (range, filters, observer) and sends them now. */
  setView(fields) {
    const changed = {};
    for (const [key, value] of Object.entries(fields)) {
      if (JSON.stringify(this.wanted[key]) !== JSON.stringify(value)) changed[key] = value;
    }
    Object.assign(this.wanted, changed);
    if (Object.keys(changed).length > 0) this.send({ type: "view", ...changed });
  }

  /** The heading, sent when it has moved a degree and at most five times a second. */
  setHeading(degrees) {
    this.wanted.heading_deg = headingHundredths(degrees);
    if (this.sentHeading !== null) {
      const moved = Math.abs(angleDifference(this.sentHeading, this.wanted.heading_deg));
      if (moved < HEADING_STEP_DEG) return;
    }
    const wait = this.lastHeadingAt + HEADING_INTERVAL_MS - performance.now();
    if (wait > 0) {
      if (!this.headingTimer) {
        this.headingTimer = setTimeout(() => {
          this.headingTimer = 0;
          this.setHeading(this.wanted.heading_deg);
        }, wait);
      }
      return;
    }
    this.lastHeadingAt = performance.now();
    if (this.send({ type: "view", heading_deg: this.wanted.heading_deg })) this.sentHeading = this.wanted.heading_deg;
  }

  /** Sends a command when the feed is open; returns whether it went. */
  send(command) {
    if (this.socket?.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(command));
    return true;
  }
}
