// Fingers and mice on the radar: a tap chooses an aircraft, one finger dragged round the
// centre turns the radar (when no compass leads), two fingers pinch to zoom, and a mouse
// wheel zooms too.

/** A press that moves less than this (CSS pixels) is a tap. */
const TAP_PX = 8;

export class Gestures {
  /**
   * @param {HTMLElement} element the radar canvas
   * @param {object} handlers `tap(x, y)`, `turn(degrees)`, `zoom(factor)`, `turnEnd()`;
   *   x, y in CSS pixels from the element's corner, factor > 1 zooming in.
   * @param {() => {x: number, y: number}} centre where the radar's centre is on the element
   */
  constructor(element, handlers, centre) {
    this.element = element;
    this.handlers = handlers;
    this.centre = centre;
    this.pointers = new Map();
    this.pinch = null;
    this.moved = false;
    element.addEventListener("pointerdown", (event) => this.down(event));
    element.addEventListener("pointermove", (event) => this.move(event));
    element.addEventListener("pointerup", (event) => this.up(event, true));
    element.addEventListener("pointercancel", (event) => this.up(event, false));
    element.addEventListener("wheel", (event) => {
      event.preventDefault();
      this.handlers.zoom(Math.exp(-event.deltaY * 0.0015));
    }, { passive: false });
  }

  local(event) {
    const rect = this.element.getBoundingClientRect();
    return { x: event.clientX - rect.left, y: event.clientY - rect.top };
  }

  down(event) {
    this.element.setPointerCapture?.(event.pointerId);
    const point = this.local(event);
    this.pointers.set(event.pointerId, { start: point, last: point });
    if (this.pointers.size === 1) this.moved = false;
    if (this.pointers.size === 2) {
      this.moved = true;
      this.pinch = this.spread();
    }
  }

  move(event) {
    const pointer = this.pointers.get(event.pointerId);
    if (!pointer) return;
    const point = this.local(event);
    if (this.pointers.size === 1) {
      if (!this.moved && Math.hypot(point.x - pointer.start.x, point.y - pointer.start.y) > TAP_PX) this.moved = true;
      if (this.moved) {
        const { x, y } = this.centre();
        const before = Math.atan2(pointer.last.x - x, y - pointer.last.y);
        const after = Math.atan2(point.x - x, y - point.y);
        let turned = ((after - before) * 180) / Math.PI;
        if (turned > 180) turned -= 360;
        if (turned < -180) turned += 360;
        // Dragging the picture clockwise brings what was on the left to the top: the heading
        // goes the other way.
        this.handlers.turn(-turned);
      }
    }
    pointer.last = point;
    if (this.pointers.size === 2 && this.pinch) {
      const spread = this.spread();
      if (spread > 0 && this.pinch > 0) this.handlers.zoom(spread / this.pinch);
      this.pinch = spread;
    }
  }

  up(event, completed) {
    const pointer = this.pointers.get(event.pointerId);
    if (!pointer) return;
    this.pointers.delete(event.pointerId);
    if (this.pointers.size < 2) this.pinch = null;
    if (this.pointers.size === 0) {
      if (completed && !this.moved) this.handlers.tap(pointer.start.x, pointer.start.y);
      else if (this.moved) this.handlers.turnEnd();
    }
  }

  spread() {
    const [a, b] = [...this.pointers.values()];
    return a && b ? Math.hypot(a.last.x - b.last.x, a.last.y - b.last.y) : 0;
  }
}
