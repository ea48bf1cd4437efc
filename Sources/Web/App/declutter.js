// Keeping a crowded scope readable: aircraft drawn on top of each other are nudged apart, a
// little, and each callsign goes in the first free place of a few around its aircraft, or is
// left out when none is free. Geometry only (boxes in pixels, no drawing), so node tests it.
//
// The scope runs it on every frame with hundreds of aircraft, so it compares each box only
// with those in the neighbouring cells of a grid, keeps its arrays from frame to frame, and
// allocates nothing once they are large enough. It is deterministic: the same boxes in the
// same order give the same answer, so nothing flickers while the sky stands still.

/** Passes over the overlapping pairs when nudging: each resolves most of what is left. */
const SPREAD_PASSES = 4;
/**
 * At most this many touching pairs are nudged in a frame, the first found (in the markers'
 * order). A crowd with more is far beyond what a few pixels can part, and the cost of a
 * frame must not grow with the square of a crowd.
 */
export const MAX_PAIRS = 400;
/** Where a label goes, tried in this order: right of the marker, left, above, below. */
const LABEL_PLACES = 4;
/** The side of the label grid's cells (pixels): about half a callsign. */
const LABEL_CELL = 32;
/** Turns between the escape directions of markers drawn at exactly the same place. */
const GOLDEN_ANGLE = Math.PI * (3 - Math.sqrt(5));

/** A hash of a grid cell, folded into a table of `mask + 1` buckets. */
function bucket(column, row, mask) {
  return (Math.imul(column, 73856093) ^ Math.imul(row, 19349663)) & mask;
}

/** The array, or a copy twice as large when `needed` does not fit. */
function room(array, needed) {
  if (needed <= array.length) return array;
  const larger = new array.constructor(Math.max(needed, array.length * 2));
  larger.set(array);
  return larger;
}

export class Declutter {
  constructor() {
    this.count = 0;
    // Markers: where they are drawn, where they were asked to be, and their half size.
    this.x = new Float64Array(64);
    this.y = new Float64Array(64);
    this.originX = new Float64Array(64);
    this.originY = new Float64Array(64);
    this.half = new Float64Array(64);
    this.column = new Int32Array(64);
    this.row = new Int32Array(64);
    this.pairs = new Int32Array(256);
    this.pairCount = 0;
    // Boxes the labels must keep off (the markers, then the labels placed), in a hashed grid:
    // `heads` per bucket, then a chain of entries through `next`, each naming its box.
    this.boxes = 0;
    this.left = new Float64Array(128);
    this.top = new Float64Array(128);
    this.right = new Float64Array(128);
    this.bottom = new Float64Array(128);
    this.heads = new Int32Array(1024);
    this.next = new Int32Array(512);
    this.entryBox = new Int32Array(512);
    this.entries = 0;
    this.mask = 1023;
    /** The last placed label's top left corner (see `placeLabel`). */
    this.labelX = 0;
    this.labelY = 0;
  }

  /** Forgets the last frame's markers and labels. */
  reset() {
    this.count = 0;
    this.boxes = 0;
    this.entries = 0;
  }

  /** Adds a marker centred on (x, y), `size` pixels across; returns its index. */
  addMarker(x, y, size) {
    const i = this.count;
    if (i === this.x.length) {
      for (const name of ["x", "y", "originX", "originY", "half", "column", "row"]) this[name] = room(this[name], i + 1);
    }
    this.x[i] = this.originX[i] = x;
    this.y[i] = this.originY[i] = y;
    this.half[i] = size / 2;
    this.count = i + 1;
    return i;
  }

  /**
   * Moves overlapping markers apart until they are `gap` pixels apart or each has moved
   * `maxShift` pixels from where it was asked to be, whichever comes first: a marker never
   * strays further than that from the aircraft's place, so a dense crowd still overlaps, less.
   * Markers are round for this (`size` across). Exactly coincident markers part in directions
   * given by their order. Past MAX_PAIRS touching pairs, the rest stay where they are.
   */
  spread(maxShift, gap) {
    const { count, x, y, half } = this;
    this.pairCount = 0;
    if (count < 2 || maxShift <= 0) return;
    let largest = 0;
    for (let i = 0; i < count; i += 1) largest = Math.max(largest, half[i]);
    // Two markers further apart than this do not touch (a cell at least a pixel wide).
    const reach = Math.max(1, 2 * largest + gap);
    const mask = this.prepareGrid(count);
    const { heads, next, column, row } = this;
    for (let i = 0; i < count; i += 1) {
      column[i] = Math.floor(x[i] / reach);
      row[i] = Math.floor(y[i] / reach);
      const b = bucket(column[i], row[i], mask);
      next[i] = heads[b];
      heads[b] = i;
    }
    // The pairs that touch: each marker against the later ones in its cell and the eight
    // around it (the cell checked too, as different cells can share a bucket). Pairs that
    // come to touch only once nudged are left to the next frame.
    collect: for (let i = 0; i < count; i += 1) {
      for (let dc = -1; dc <= 1; dc += 1) {
        for (let dr = -1; dr <= 1; dr += 1) {
          const c = column[i] + dc;
          const r = row[i] + dr;
          for (let j = heads[bucket(c, r, mask)]; j !== -1; j = next[j]) {
            if (j <= i || column[j] !== c || row[j] !== r) continue;
            const wanted = half[i] + half[j] + gap;
            const dx = x[j] - x[i];
            const dy = y[j] - y[i];
            if (dx * dx + dy * dy >= wanted * wanted) continue;
            if (this.pairCount * 2 + 2 > this.pairs.length) this.pairs = room(this.pairs, this.pairCount * 2 + 2);
            this.pairs[this.pairCount * 2] = i;
            this.pairs[this.pairCount * 2 + 1] = j;
            this.pairCount += 1;
            if (this.pairCount === MAX_PAIRS) break collect;
          }
        }
      }
    }
    const { pairs, pairCount } = this;
    for (let pass = 0; pass < SPREAD_PASSES; pass += 1) {
      let moved = false;
      for (let p = 0; p < pairCount; p += 1) {
        const i = pairs[2 * p];
        const j = pairs[2 * p + 1];
        const dx = x[j] - x[i];
        const dy = y[j] - y[i];
        const wanted = half[i] + half[j] + gap;
        const distance2 = dx * dx + dy * dy;
        if (distance2 >= wanted * wanted) continue;
        moved = true;
        const distance = Math.sqrt(distance2);
        let ux;
        let uy;
        if (distance > 1e-6) {
          ux = dx / distance;
          uy = dy / distance;
        } else {
          ux = Math.cos(j * GOLDEN_ANGLE);
          uy = Math.sin(j * GOLDEN_ANGLE);
        }
        const push = (wanted - distance) / 2;
        x[i] -= ux * push;
        y[i] -= uy * push;
        x[j] += ux * push;
        y[j] += uy * push;
        this.tether(i, maxShift);
        this.tether(j, maxShift);
      }
      if (!moved) break;
    }
  }

  /** Brings marker `i` back to within `maxShift` of where it was asked to be. */
  tether(i, maxShift) {
    const sx = this.x[i] - this.originX[i];
    const sy = this.y[i] - this.originY[i];
    const shift2 = sx * sx + sy * sy;
    if (shift2 > maxShift * maxShift) {
      const keep = maxShift / Math.sqrt(shift2);
      this.x[i] = this.originX[i] + sx * keep;
      this.y[i] = this.originY[i] + sy * keep;
    }
  }

  /**
   * Makes the markers, where they are now, the first obstacles of the labels. Call after
   * `spread` and before `addObstacle` and `placeLabel`.
   */
  startLabels() {
    this.prepareGrid(this.count * 8);
    this.boxes = 0;
    this.entries = 0;
    for (let i = 0; i < this.count; i += 1) {
      const h = this.half[i];
      this.addBox(this.x[i] - h, this.y[i] - h, this.x[i] + h, this.y[i] + h);
    }
  }

  /** Adds a box (top left corner, width, height) that no label may overlap, such as fixed text. */
  addObstacle(left, top, width, height) {
    this.addBox(left, top, left + width, top + height);
  }

  /**
   * Places a label `width` × `height` beside marker `marker`: the first of right, left, above
   * and below (each `pad` pixels off the marker) that overlaps no marker and no label placed
   * before it. Returns which (0 to 3, its top left corner in `labelX`, `labelY`), or -1 when
   * there is no room and the label should be left out. Labels placed first win: place the
   * ones that matter most first.
   */
  placeLabel(marker, width, height, pad) {
    const cx = this.x[marker];
    const cy = this.y[marker];
    const h = this.half[marker] + pad;
    for (let place = 0; place < LABEL_PLACES; place += 1) {
      let left;
      let top;
      if (place === 0) {
        left = cx + h;
        top = cy - height / 2;
      } else if (place === 1) {
        left = cx - h - width;
        top = cy - height / 2;
      } else if (place === 2) {
        left = cx - width / 2;
        top = cy - h - height;
      } else {
        left = cx - width / 2;
        top = cy + h;
      }
      if (this.isFree(left, top, left + width, top + height, marker)) {
        this.addBox(left, top, left + width, top + height);
        this.labelX = left;
        this.labelY = top;
        return place;
      }
    }
    return -1;
  }

  /** Whether the box overlaps none of the boxes so far, but for box `except`. */
  isFree(left, top, right, bottom, except) {
    const { heads, next, entryBox, mask } = this;
    const c0 = Math.floor(left / LABEL_CELL);
    const c1 = Math.floor(right / LABEL_CELL);
    const r0 = Math.floor(top / LABEL_CELL);
    const r1 = Math.floor(bottom / LABEL_CELL);
    for (let c = c0; c <= c1; c += 1) {
      for (let r = r0; r <= r1; r += 1) {
        for (let e = heads[bucket(c, r, mask)]; e !== -1; e = next[e]) {
          const b = entryBox[e];
          if (b === except) continue;
          if (left < this.right[b] && right > this.left[b] && top < this.bottom[b] && bottom > this.top[b]) return false;
        }
      }
    }
    return true;
  }

  /** Adds an obstacle box to the grid of every cell it touches. */
  addBox(left, top, right, bottom) {
    const b = this.boxes;
    if (b === this.left.length) {
      for (const name of ["left", "top", "right", "bottom"]) this[name] = room(this[name], b + 1);
    }
    this.left[b] = left;
    this.top[b] = top;
    this.right[b] = right;
    this.bottom[b] = bottom;
    this.boxes = b + 1;
    const c0 = Math.floor(left / LABEL_CELL);
    const c1 = Math.floor(right / LABEL_CELL);
    const r0 = Math.floor(top / LABEL_CELL);
    const r1 = Math.floor(bottom / LABEL_CELL);
    for (let c = c0; c <= c1; c += 1) {
      for (let r = r0; r <= r1; r += 1) {
        const e = this.entries;
        if (e === this.next.length) {
          this.next = room(this.next, e + 1);
          this.entryBox = room(this.entryBox, e + 1);
        }
        const k = bucket(c, r, this.mask);
        this.entryBox[e] = b;
        this.next[e] = this.heads[k];
        this.heads[k] = e;
        this.entries = e + 1;
      }
    }
  }

  /** Empties the hashed grid, with at least `items` buckets (a power of two); returns the mask. */
  prepareGrid(items) {
    let size = this.heads.length;
    while (size < items * 2) size *= 2;
    if (size !== this.heads.length) this.heads = new Int32Array(size);
    if (this.next.length < this.count) this.next = room(this.next, this.count);
    this.heads.fill(-1);
    this.mask = size - 1;
    return this.mask;
  }
}

/**
 * The whole de-overlap on plain objects: `markers` ({x, y, size}, centres) nudged apart within
 * `maxShift`, then `labels` ({marker, width, height}, most important first) placed beside
 * them. Returns `{markers: [{x, y}], labels: [{x, y, width, height} or null]}` (a label's top
 * left corner; null when left out). The scope uses a `Declutter` directly, to keep its arrays.
 */
export function declutter(markers, labels, { maxShift = 4, gap = 1, pad = 3 } = {}) {
  const work = new Declutter();
  for (const marker of markers) work.addMarker(marker.x, marker.y, marker.size);
  work.spread(maxShift, gap);
  const placedMarkers = markers.map((_, i) => ({ x: work.x[i], y: work.y[i] }));
  work.startLabels();
  const placedLabels = labels.map(({ marker, width, height }) =>
    (work.placeLabel(marker, width, height, pad) === -1 ? null : { x: work.labelX, y: work.labelY, width, height }));
  return { markers: placedMarkers, labels: placedLabels };
}
