// A Fruit Rage board drawn in SVG: one <g class="fruit fruit-D"> per fruit, placed by its
// cell in a viewBox of one unit per cell, with the column letters along the top and the
// row numbers down the left (the names moves have). Interactive boards light the group
// under the pointer or the keyboard cursor and report the group picked. A finger has no
// pointer to hover: its first tap on a group lights it, and a second tap on it picks it.

const SVG = "http://www.w3.org/2000/svg";
const EMPTY = "*";
const COLUMNS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const EDGE = 0.8;   // room for the coordinates, in cells

export function cellName(row, col) {
  return `${COLUMNS[col]}${row + 1}`;
}

export function svgElement(name, attributes = {}, parent = null) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  if (parent) parent.appendChild(element);
  return element;
}

export function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

// The cells of the group at [row, col] of `rows`: its fruit's kind, joined side by side.
export function groupCells(rows, row, col) {
  const fruit = rows[row][col];
  const seen = new Set([`${row},${col}`]);
  const cells = [[row, col]];
  for (let i = 0; i < cells.length; i++) {
    const [r, c] = cells[i];
    for (const [nr, nc] of [[r - 1, c], [r + 1, c], [r, c - 1], [r, c + 1]]) {
      if (rows[nr]?.[nc] === fruit && !seen.has(`${nr},${nc}`)) {
        seen.add(`${nr},${nc}`);
        cells.push([nr, nc]);
      }
    }
  }
  return cells;
}

// [row, col] of a cell name such as B3.
export function parseCellName(name) {
  return [Number(name.slice(1)) - 1, COLUMNS.indexOf(name[0])];
}

// For every fruit that stays, where gravity takes it when `taken` cells leave `rows`:
// [[fromRow, col, toRow]], only for fruit that moves.
export function falls(rows, taken) {
  const n = rows.length;
  const gone = new Set(taken.map(([r, c]) => `${r},${c}`));
  const moves = [];
  for (let col = 0; col < n; col++) {
    let landing = n - 1;
    for (let row = n - 1; row >= 0; row--) {
      if (rows[row][col] === EMPTY || gone.has(`${row},${col}`)) continue;
      if (landing !== row) moves.push([row, col, landing]);
      landing--;
    }
  }
  return moves;
}

export class BoardView {
  // onPick(group) when a group is clicked or chosen with Enter; onLight(group or null,
  // tapped) when the lit group changes, `tapped` when a tap lit it. Without onPick the
  // board only shows.
  constructor(container, { label, onPick = null, onLight = () => {} } = {}) {
    this.container = container;
    this.onPick = onPick;
    this.onLight = onLight;
    this.rows = [];
    this.groupOf = new Map();
    this.enabled = false;
    this.cursor = null;
    this.pointer = null;   // the cell under the pointer, whose group stays lit as the board changes
    this.tapped = null;    // the group a tap lit: a second tap on it picks it
    this.pointerType = "";  // of the last press: "touch" previews before it picks
    this.drawings = 0;     // boards drawn so far: an animation that sees another stops
    this.playing = [];     // the animations of the move being animated
    this.svg = svgElement("svg", { "aria-label": label, role: onPick ? "application" : "img" });
    this.background = svgElement("g", {}, this.svg);
    this.layer = svgElement("g", {}, this.svg);
    this.cursorMark = svgElement("rect", { class: "cursor", width: 1, height: 1, visibility: "hidden" }, this.svg);
    container.replaceChildren(this.svg);
    if (onPick) this.listen();
  }

  get size() {
    return this.rows.length;
  }

  render(rows) {
    this.drawings++;   // a move being animated stops here: its board is no longer the one shown
    for (const animation of this.playing) animation.cancel();
    this.playing = [];
    const n = rows.length;
    if (n !== this.size) this.drawBackground(n);
    this.rows = rows;
    this.svg.setAttribute("viewBox", `${-EDGE} ${-EDGE} ${n + EDGE + 0.05} ${n + EDGE + 0.05}`);
    this.svg.dataset.size = n;
    const fruits = [];
    rows.forEach((line, row) => {
      [...line].forEach((fruit, col) => {
        if (fruit !== EMPTY) fruits.push(this.fruitElement(row, col, fruit));
      });
    });
    this.layer.replaceChildren(...fruits);
    this.container.dataset.rows = rows.join("/");
  }

  drawBackground(n) {
    const parts = [svgElement("rect", { class: "board-bg", x: 0, y: 0, width: n, height: n })];
    for (let k = 1; k < n; k++) {
      parts.push(svgElement("line", { class: "grid-line", x1: k, y1: 0, x2: k, y2: n }));
      parts.push(svgElement("line", { class: "grid-line", x1: 0, y1: k, x2: n, y2: k }));
    }
    const coordinates = svgElement("g", { class: "coordinates", "aria-hidden": "true" });
    for (let k = 0; k < n; k++) {
      svgElement("text", { class: "coordinate column", x: k + 0.5, y: -EDGE / 2 }, coordinates).textContent = COLUMNS[k];
      svgElement("text", { class: "coordinate row", x: -EDGE / 2, y: k + 0.5 }, coordinates).textContent = k + 1;
    }
    parts.push(coordinates);
    this.background.replaceChildren(...parts);
  }

  fruitElement(row, col, fruit) {
    const g = svgElement("g", {
      class: `fruit fruit-${fruit}`, transform: `translate(${col} ${row})`,
      "data-row": row, "data-col": col, "data-fruit": fruit,
    });
    svgElement("rect", { x: 0.03, y: 0.03, width: 0.94, height: 0.94, rx: 0.2 }, g);
    svgElement("text", { x: 0.5, y: 0.52 }, g).textContent = fruit;
    return g;
  }

  fruitAt(row, col) {
    return this.layer.querySelector(`[data-row="${row}"][data-col="${col}"]`);
  }

  setGroups(groups) {
    this.groupOf = new Map();
    this.tapped = null;   // a new position: a tap chose in the old one
    for (const group of groups) {
      for (const [row, col] of group.cells) this.groupOf.set(`${row},${col}`, group);
    }
  }

  groupAt(row, col) {
    return this.groupOf.get(`${row},${col}`) || null;
  }

  mark(cells, className) {
    for (const element of this.layer.querySelectorAll(`.${className}`)) element.classList.remove(className);
    for (const [row, col] of cells) this.fruitAt(row, col)?.classList.add(className);
  }

  light(group, tapped = false) {
    this.tapped = tapped ? group : null;
    this.mark(group ? group.cells : [], "lit");
    this.onLight(group, tapped);
  }

  // Allow or stop picking (while the agent thinks, or once the game is over).
  setEnabled(enabled) {
    this.enabled = enabled;
    this.svg.setAttribute("aria-disabled", String(!enabled));
    if (!enabled) this.light(null);
    else if (this.pointer) this.light(this.groupAt(...this.pointer));
  }

  listen() {
    this.container.classList.add("interactive");
    this.svg.setAttribute("tabindex", "0");
    const cellOf = (event) => {
      const fruit = event.target.closest?.(".fruit");
      return fruit ? [Number(fruit.dataset.row), Number(fruit.dataset.col)] : null;
    };
    // a finger's moves and its lifting are no hover: they leave a tap's choice lit
    this.svg.addEventListener("pointerdown", (event) => { this.pointerType = event.pointerType; });
    this.svg.addEventListener("pointermove", (event) => {
      if (event.pointerType === "touch") return;
      this.pointer = cellOf(event);
      if (this.enabled) this.light(this.pointer ? this.groupAt(...this.pointer) : null);
    });
    this.svg.addEventListener("pointerleave", (event) => {
      if (event.pointerType === "touch") return;
      this.pointer = null;
      if (this.enabled) this.light(null);
    });
    this.svg.addEventListener("click", (event) => {
      const cell = cellOf(event);
      const group = cell && this.groupAt(...cell);
      if (!this.enabled) return;
      if (this.pointerType !== "touch") {
        if (group) this.onPick(group);
      } else if (group && group === this.tapped) {
        this.onPick(group);
      } else {
        this.light(group, Boolean(group));
      }
    });
    // the cursor shows for the keyboard only: a click focuses the board too
    this.svg.addEventListener("focus", () => this.svg.matches(":focus-visible") && this.moveCursor(0, 0));
    this.svg.addEventListener("blur", () => {
      this.cursorMark.setAttribute("visibility", "hidden");
      if (this.enabled) this.light(null);
    });
    this.svg.addEventListener("keydown", (event) => this.onKey(event));
  }

  onKey(event) {
    const steps = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (event.key in steps) {
      event.preventDefault();
      this.moveCursor(...steps[event.key]);
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      const group = this.cursor && this.groupAt(...this.cursor);
      if (this.enabled && group) this.onPick(group);
    }
  }

  moveCursor(dRow, dCol) {
    const n = this.size;
    if (!n) return;
    if (!this.cursor) this.cursor = this.firstFruit();
    const [row, col] = this.cursor;
    this.cursor = [Math.min(n - 1, Math.max(0, row + dRow)), Math.min(n - 1, Math.max(0, col + dCol))];
    this.showCursor();
  }

  firstFruit() {
    // the top fruit of the leftmost column that has one: where the eye starts
    for (let col = 0; col < this.size; col++) {
      for (let row = 0; row < this.size; row++) if (this.rows[row][col] !== EMPTY) return [row, col];
    }
    return [0, 0];
  }

  showCursor() {
    if (!this.cursor) return;
    const [row, col] = this.cursor;
    this.cursorMark.setAttribute("x", col);
    this.cursorMark.setAttribute("y", row);
    this.cursorMark.setAttribute("visibility", "visible");
    if (this.enabled) this.light(this.groupAt(row, col));
  }

  // Take `cells` off the board, let the rest fall, then show `nextRows` (the server's
  // board, which the animation only previews). A render() meanwhile cuts it short: the
  // board then shows what render() was given, and this returns false.
  async animateMove(cells, nextRows) {
    const drawing = this.drawings;
    if (!reducedMotion()) {
      this.mark(cells, "lit");
      const leaving = cells.map(([r, c]) => this.fruitAt(r, c)).filter(Boolean);
      await this.play(leaving.map((element) => element.animate(
        [{ opacity: 1 }, { opacity: 0 }], { duration: 220, easing: "ease-in", fill: "forwards" })));
      if (drawing !== this.drawings) return false;
      await this.play(falls(this.rows, cells).map(([from, col, to]) => this.fruitAt(from, col).animate(
        [{ transform: `translate(${col}px, ${from}px)` }, { transform: `translate(${col}px, ${to}px)` }],
        { duration: 140 + 90 * Math.sqrt(to - from), easing: "cubic-bezier(0.5, 0, 1, 1)", fill: "forwards" })));
      if (drawing !== this.drawings) return false;
    }
    this.render(nextRows);
    this.showCursor();
    return true;
  }

  // Until `animations` end, or a render() cancels them.
  async play(animations) {
    this.playing = animations;
    await Promise.allSettled(animations.map((animation) => animation.finished));
  }
}
