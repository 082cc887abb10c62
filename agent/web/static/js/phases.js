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
  const series = phases.series.map((s) => ({
    name: `${s.label} (${plural(s.games, "game")})`,
    className: s.first === "A" ? "series-a" : "series-b",
    points: s.margins.map((margin, k) => [phases.fruit_gone[k], Math.round(margin * 10) / 10]),
  }));
  drawLineChart($("phases-chart"), series, {
    xLabel: "fruit gone", xUnit: "%", yLabel: "A's mean margin", xTicks: phases.fruit_gone,
    xRange: [0, 100], legend: true,
  });
  const table = $("phases-table");
  const head = document.createElement("thead");
  head.append(row("th", "fruit gone", phases.fruit_gone.map((p) => `${p}%`)));
  const body = document.createElement("tbody");
  for (const s of phases.series) {
    body.append(row("td", `${s.label} (${plural(s.games, "game")})`, s.margins.map((m) => (m > 0 ? "+" : "") + m.toFixed(1))));
  }
  body.append(row("td", `${A} ${phases.a_time} s a game`, phases.cpu_per_game.map((c) => c.toFixed(2))));
  table.replaceChildren(head, body);
  if (phases.skipped) {
    const note = cell("caption", `left out: ${plural(phases.skipped, "game")} ended by a fault`);
    table.prepend(note);
  }
  $("phases-figure").hidden = false;
  table.hidden = false;
}
