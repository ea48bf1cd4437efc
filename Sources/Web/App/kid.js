// Kid mode's extras: a soft chime made with WebAudio when an aircraft comes near (no sound
// file to ship), a screen that stays awake while the radar is watched, and only aircraft
// that fly, unless Settings asks for those on the ground too.

/** Two notes a sixth apart, like a doorbell heard from the next room. */
const NOTES_HZ = [880, 1396.9];
const NOTE_GAP_S = 0.16;
const RING_S = 1.4;
const LOUDNESS = 0.12;
/** Chimes closer together than this merge into one: a burst of arrivals is one event. */
const CHIME_INTERVAL_MS = 2500;

/**
 * Whether kid mode shows an aircraft (a feed object): those flying, or not known to be on the
 * ground, always; those on the ground only when `showGround` (Settings). A child looks for
 * planes in the sky; a parked one would only crowd the scope and ring the chime.
 */
export function kidShows(data, showGround) {
  return showGround || data.on_ground !== true;
}

export class Chime {
  constructor() {
    this.audio = null;
    this.lastAt = -Infinity;
  }

  /** Creates or wakes the audio context: browsers allow that only in answer to a tap. */
  unlock() {
    const Context = window.AudioContext ?? window.webkitAudioContext;
    if (!Context) return;
    this.audio ??= new Context();
    if (this.audio.state === "suspended") this.audio.resume().catch(() => {});
  }

  /** Plays the chime, unless one just played. */
  play(now = performance.now()) {
    if (!this.audio || this.audio.state !== "running" || now - this.lastAt < CHIME_INTERVAL_MS) return false;
    this.lastAt = now;
    const start = this.audio.currentTime + 0.02;
    NOTES_HZ.forEach((frequency, index) => {
      const at = start + index * NOTE_GAP_S;
      const tone = this.audio.createOscillator();
      const gain = this.audio.createGain();
      tone.type = "sine";
      tone.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(LOUDNESS, at + 0.015);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + RING_S);
      tone.connect(gain).connect(this.audio.destination);
      tone.start(at);
      tone.stop(at + RING_S + 0.05);
    });
    return true;
  }
}

/** Keeps the screen on while wanted, asking again whenever the page comes back into view. */
export class Awake {
  constructor() {
    this.wanted = false;
    this.lock = null;
    document.addEventListener("visibilitychange", () => {
      if (this.wanted && document.visibilityState === "visible") this.request();
    });
  }

  set(wanted) {
    this.wanted = wanted;
    if (wanted) {
      this.request();
    } else {
      this.lock?.release().catch(() => {});
      this.lock = null;
    }
  }

  async request() {
    if (!("wakeLock" in navigator) || this.lock) return;
    try {
      this.lock = await navigator.wakeLock.request("screen");
      this.lock.addEventListener("release", () => { this.lock = null; });
    } catch {
      // Refused (low battery, not visible): the screen may sleep; nothing else changes.
    }
  }
}
