// The Phases view: where the margin of a file's games was made, as `fruit-rage phases`
// prints it: A's mean margin once each tenth of the fruit is gone, for the games A moved
// first and those it moved second, and the seconds A spent in each part (CPU, or a
// person's thinking).

import { drawLineChart } from "./chart.js";
import { plural } from "./words.js";

const $ = (id) => document.getElementById(id);

function cell(tag, text) {
  const element = document.createElement(tag);
  element.textContent = text;
  return element;
}

function row(tag, label, values) {
  const tr = document.createElement("tr");
  tr.append(cell("th", label), ...values.map((value) => cell(tag, value)));
  return tr;
}

export function showPhases(file) {
  const phases = file.phases;
  $("phases-source").textContent = `${file.label}: ${plural(file.games.length, "game")}.`;
  if (phases.problem) {
    $("phases-source").textContent += ` No phases: ${phases.problem}.`;
    $("phases-figure").hidden = true;
    $("phases-table").hidden = true;
    return;
  }
  const { A, B } = phases.agents;
  $("phases-caption").textContent = `A (${A}) minus B (${B}) in points, the mean over games, `
    + "once each part of the fruit is gone";
  // "(1 game)" keeps together where a narrow column wraps its heading
  const named = (s) => `${s.label} (${plural(s.games, "game").replace(" ", "\u00a0")})`;
  const series = phases.series.map((s) => ({
    name: named(s),
    className: s.first === "A" ? "series-a" : "series-b",
    points: s.margins.map((margin, k) => [phases.fruit_gone[k], Math.round(margin * 10) / 10]),
  }));
  drawLineChart($("phases-chart"), series, {
    xLabel: "fruit gone", xUnit: "%", yLabel: "A's mean margin", xTicks: phases.fruit_gone,
    xRange: [0, 100], legend: true,
  });
  // a row for each part of the fruit, as the command prints it: a few columns, which fit a phone
  const columns = [
    ...phases.series.map((s) => ({ label: named(s), values: s.margins.map((m) => (m > 0 ? "+" : "") + m.toFixed(1)) })),
    { label: `${A} ${phases.a_time} s a game`, values: phases.cpu_per_game.map((c) => c.toFixed(2)) },
  ];
  const table = $("phases-table");
  const head = document.createElement("thead");
  head.append(row("th", "fruit gone", columns.map((c) => c.label)));
  const body = document.createElement("tbody");
  phases.fruit_gone.forEach((p, k) => body.append(row("td", `${p}%`, columns.map((c) => c.values[k]))));
  table.replaceChildren(head, body);
  if (phases.skipped) {
    const note = cell("caption", `left out: ${plural(phases.skipped, "game")} ended by a fault`);
    table.prepend(note);
  }
  $("phases-figure").hidden = false;
  table.hidden = false;
}
