// Line charts in SVG: numeric x and y axes, a dashed zero line, one polyline and one
// circle per point for each series. A chart narrower than WIDTH on the screen is laid out
// at its own width, so that its text keeps the size the style sheet gives it; it is drawn
// again when its width changes.

import { svgElement } from "./board.js";
import { signed } from "./words.js";

const WIDTH = 560;
const MIN_WIDTH = 280;
const HEIGHT = 300;
const MARGIN = { right: 16, top: 16, bottom: 44 };   // the left one fits the y labels
const TITLE_X = 10;   // the rotated y title's middle
const TITLE_ROOM = 20;   // left of the y labels: the title's 12px line about TITLE_X, and a gap
const TICK = 4;   // a tick's length
const LABEL_OFFSET = 7;   // from the y axis to its labels' right end: a tick and a gap
const INSET = 10;   // between the axes and the nearest point: no point sits on an axis or under a label

const drawn = new WeakMap();   // svg -> its latest series and options, drawn again on a resize
const resized = new ResizeObserver((entries) => {
  for (const { target } of entries) {
    const last = drawn.get(target);
    if (last && chartWidth(target) !== last.width) drawLineChart(target, last.series, last.options);
  }
});

// The widest of `texts` in the font the style sheet gives a text in `group`, measured on
// a canvas: it needs no layout, so a chart drawn while hidden is measured alike.
const canvas = document.createElement("canvas").getContext("2d");
function widest(group, texts) {
  const probe = svgElement("text", {}, group);
  const style = getComputedStyle(probe);   // live: read before the probe goes
  canvas.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  probe.remove();
  return Math.ceil(Math.max(...texts.map((text) => canvas.measureText(text).width)));
}

function chartWidth(svg) {
  const shown = svg.getBoundingClientRect().width;
  return shown ? Math.floor(Math.min(WIDTH, Math.max(MIN_WIDTH, shown))) : WIDTH;   // never drawn smaller than laid out
}

// Round tick values covering [low, high], about `count` of them.
export function ticks(low, high, count = 6) {
  if (low === high) return [low];
  const raw = (high - low) / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((f) => f * magnitude).find((s) => s >= raw);
  const values = [];
  for (let v = Math.ceil(low / step) * step; v <= high + step * 1e-9; v += step) values.push(Number(v.toFixed(10)));
  return values;
}

// series: [{ name, className, points: [[x, y], ...] }]. options: xLabel, yLabel,
// xTicks (values), legend (bool), current ({series, index} to ring one point),
// onPoint(seriesIndex, pointIndex) when a point is clicked, marks ([{index, label, text,
// title}]: a sign above the first series' point `index`) and onMark(index) when one is clicked.
export function drawLineChart(svg, series, options = {}) {
  const width = chartWidth(svg);
  drawn.set(svg, { series, options, width });
  resized.observe(svg);
  svg.setAttribute("viewBox", `0 0 ${width} ${HEIGHT}`);
  svg.replaceChildren();
  // the legend takes a line each above the plot, where it hides no point
  const top = MARGIN.top + (options.legend ? 18 * series.length : 0);
  const xs = series.flatMap((s) => s.points.map((p) => p[0]));
  const ys = series.flatMap((s) => s.points.map((p) => p[1])).concat([0]);
  const [xLow, xHigh] = options.xRange || [Math.min(...xs), Math.max(...xs)];
  const yTicks = ticks(Math.min(...ys), Math.max(...ys));
  const [yLow, yHigh] = [Math.min(...ys, ...yTicks), Math.max(...ys, ...yTicks)];
  const axes = svgElement("g", { class: "axis" }, svg);
  // the y axis stands right of the title's line and the widest y label: none overlaps another
  const axis = TITLE_ROOM + widest(axes, yTicks.map(signed)) + LABEL_OFFSET;
  const plotWidth = width - axis - MARGIN.right - INSET;
  const plotHeight = HEIGHT - top - MARGIN.bottom - INSET;
  const left = axis + INSET;
  const x = (v) => left + (xHigh === xLow ? plotWidth / 2 : (v - xLow) / (xHigh - xLow) * plotWidth);
  const y = (v) => top + (yHigh === yLow ? plotHeight / 2 : (yHigh - v) / (yHigh - yLow) * plotHeight);

  svgElement("line", { x1: axis, y1: top, x2: axis, y2: HEIGHT - MARGIN.bottom }, axes);
  svgElement("line", { x1: axis, y1: HEIGHT - MARGIN.bottom, x2: width - MARGIN.right, y2: HEIGHT - MARGIN.bottom }, axes);
  for (const value of yTicks) {
    svgElement("line", { x1: axis - TICK, y1: y(value), x2: axis, y2: y(value) }, axes);
    const label = svgElement("text", { x: axis - LABEL_OFFSET, y: y(value) + 4, "text-anchor": "end" }, axes);
    label.textContent = signed(value);
  }
  const xTicks = options.xTicks || ticks(xLow, xHigh, 8);
  const xText = (value) => `${value}${options.xUnit || ""}`;
  // on a narrow chart every tick keeps its line, and only every `labelEvery`-th its label
  const labelRoom = widest(axes, xTicks.map(xText)) + 4;
  const tickRoom = xTicks.length > 1 ? (x(xTicks[xTicks.length - 1]) - x(xTicks[0])) / (xTicks.length - 1) : width;
  const labelEvery = Math.max(1, Math.ceil(labelRoom / tickRoom));
  xTicks.forEach((value, k) => {
    svgElement("line", { x1: x(value), y1: HEIGHT - MARGIN.bottom, x2: x(value), y2: HEIGHT - MARGIN.bottom + TICK }, axes);
    if ((xTicks.length - 1 - k) % labelEvery) return;   // the last tick keeps its label
    // a label that would cross the chart's right edge ends at it
    const room = x(value) + labelRoom / 2 <= width;
    const label = svgElement("text", {
      x: room ? x(value) : width - 2, y: HEIGHT - MARGIN.bottom + 16, "text-anchor": room ? "middle" : "end",
    }, axes);
    label.textContent = xText(value);
  });
  svgElement("text", { class: "chart-label", x: left + plotWidth / 2, y: HEIGHT - 8, "text-anchor": "middle" }, svg)
    .textContent = options.xLabel || "";
  svgElement("text", {
    class: "chart-label", x: TITLE_X, y: top + plotHeight / 2, "text-anchor": "middle", "dominant-baseline": "central",
    transform: `rotate(-90 ${TITLE_X} ${top + plotHeight / 2})`,
  }, svg).textContent = options.yLabel || "";
  svgElement("line", { class: "zero-line", x1: axis, y1: y(0), x2: width - MARGIN.right, y2: y(0) }, svg);

  series.forEach((s, seriesIndex) => {
    const group = svgElement("g", { "data-series": s.name }, svg);
    svgElement("polyline", {
      class: `series ${s.className}`, points: s.points.map(([px, py]) => `${x(px)},${y(py)}`).join(" "),
    }, group);
    s.points.forEach(([px, py], pointIndex) => {
      const current = options.current && options.current.series === seriesIndex && options.current.index === pointIndex;
      const point = svgElement("circle", {
        class: `point ${s.className}${current ? " current" : ""}`, cx: x(px), cy: y(py), r: current ? 6 : 4,
        "data-index": pointIndex,
      }, group);
      svgElement("title", {}, point).textContent = `${s.name}: ${px}${options.xUnit || ""}, ${py > 0 ? "+" : ""}${py}`;
      if (options.onPoint) point.addEventListener("click", () => options.onPoint(seriesIndex, pointIndex));
    });
  });

  const marks = svgElement("g", { class: "marks" }, svg);
  for (const mark of options.marks || []) {
    const point = series[0]?.points[mark.index];
    if (!point) continue;
    const sign = svgElement("text", {
      class: `mark label-${mark.label}`, x: x(point[0]), y: y(point[1]) - 9, "data-index": mark.index,
    }, marks);
    sign.textContent = mark.text;
    svgElement("title", {}, sign).textContent = mark.title;
    if (options.onMark) sign.addEventListener("click", () => options.onMark(mark.index));
  }

  if (options.legend) {
    const legend = svgElement("g", { class: "legend" }, svg);
    series.forEach((s, i) => {
      const line = MARGIN.top + 18 * i;
      svgElement("line", { class: `series ${s.className}`, x1: axis + 12, y1: line, x2: axis + 42, y2: line }, legend);
      svgElement("circle", { class: `point ${s.className}`, cx: axis + 27, cy: line, r: 4 }, legend);
      svgElement("text", { x: axis + 50, y: line + 4 }, legend).textContent = s.name;
    });
  }
}
