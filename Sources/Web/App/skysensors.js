// What the sky view asks of the phone: its full orientation (alpha, beta, gamma) from the
// compass-referenced events, and the rear camera's picture. Each may be refused or missing;
// the view then turns by hand and draws the sky itself.

export class SkySensors {
  /** @param {import("./orientation.js").Orientation} orientation where the readings go. */
  constructor(orientation) {
    this.orientation = orientation;
    this.lastReadingAt = -Infinity;
    this.listening = false;
    this.listeningSince = Infinity;
    this.stream = null;
    this.onAbsolute = (event) => {
      if (event.alpha == null) return;
      this.orientation.absolute(event.alpha, event.beta, event.gamma);
      this.lastReadingAt = performance.now();
    };
    // iOS: relative angles with the compass heading beside them. Other browsers' relative
    // angles say nothing about north: ignored, unless they say they are absolute.
    this.onRelative = (event) => {
      if (typeof event.webkitCompassHeading === "number" && event.webkitCompassHeading >= 0) {
        this.orientation.relativeWithCompass(event.alpha, event.beta, event.gamma, event.webkitCompassHeading,
          event.webkitCompassAccuracy);
      } else if (event.absolute === true && event.alpha != null) {
        this.orientation.absolute(event.alpha, event.beta, event.gamma);
      } else {
        return;
      }
      this.lastReadingAt = performance.now();
    };
  }

  /**
   * Whether the compass has spoken since the view opened. A phone lying still may say
   * nothing more for a long time (browsers send only changes), so silence is no sign it left.
   */
  get active() {
    return this.lastReadingAt >= this.listeningSince;
  }

  listen() {
    if (this.listening || typeof window.DeviceOrientationEvent === "undefined") return;
    this.listening = true;
    this.listeningSince = performance.now();
    window.addEventListener("deviceorientationabsolute", this.onAbsolute);
    window.addEventListener("deviceorientation", this.onRelative);
  }

  stopListening() {
    this.listening = false;
    this.listeningSince = Infinity;
    window.removeEventListener("deviceorientationabsolute", this.onAbsolute);
    window.removeEventListener("deviceorientation", this.onRelative);
  }

  /**
   * Starts the rear camera on `video`; resolves to null when it runs, else to why not
   * ("refused", "no camera").
   */
  async startCamera(video) {
    if (this.stream) return null;
    if (!navigator.mediaDevices?.getUserMedia) return "no camera";
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ audio: false, video: { facingMode: "environment" } });
      this.stream = stream;
      video.srcObject = stream;
      await video.play().catch(() => {});
      return null;
    } catch (error) {
      return error?.name === "NotAllowedError" || error?.name === "SecurityError" ? "refused" : "no camera";
    }
  }

  /** Stops the camera (the view closed): its light goes out and the battery rests. */
  stopCamera(video) {
    for (const track of this.stream?.getTracks() ?? []) track.stop();
    this.stream = null;
    video.srcObject = null;
  }
}
