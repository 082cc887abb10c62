// The analysis of a replayed game (the server's, from agent.arena.review.analysis): started with a
// button, followed with a progress bar until done or cancelled, then a list of the moves
// with what each gave away against the agent's best and its label, and a line per side.
// A move picked in the list (or on the chart) is shown on the replay's board: the move
// played dashed, the agent's best outlined thick.

import { api } from "./api.js";
import { groupCells, parseCellName } from "./board.js";
import { plural, signed } from "./words.js";

const $ = (id) => document.getElementById(id);
const POLL_MS = 300;
// Signs as chess annotates moves, for the labels worth a mark.
const MARKS = { inaccuracy: "?!", mistake: "?", blunder: "??" };

function cell(tag, text, className = "") {
  const element = document.createElement(tag);
  element.textContent = text;
  if (className) element.className = className;
  return element;
}

export class AnalysisPanel {
  // onPick(moveNumber) when a move of the list is picked; onResult() once an analysis is
  // shown or cleared (the chart redraws its marks).
  constructor(options, { onPick, onResult }) {
    this.onPick = onPick;
    this.onResult = onResult;
    this.path = null;       // the replayed game's analysis URL
    this.game = null;       // the replayed game (rows, moves, agents)
    this.result = null;     // the analysis shown
    this.polling = null;
    this.exactMark = options.analysis.exact_mark;
    $("analysis-thresholds").textContent = `The labels: ${options.analysis.thresholds}.`;
    $("analysis-exact").textContent = this.exactMark;
    $("analyse").addEventListener("click", () => this.start());
    $("analysis-cancel").addEventListener("click", () => this.cancel());
  }

  // A newly shown game: its analysis if the server has one (done or under way).
  async show(replayId, index, game) {
    this.stopPolling();
    this.path = `/api/replays/${replayId}/games/${index}/analysis`;
    this.game = game;
    this.clear();
    const path = this.path;
    let state;
    try {
      state = await api("GET", path);
    } catch (error) {
      if (path === this.path) this.say(`Error: ${error.message}`);
      return;
    }
    if (path === this.path && state.state !== "none") this.follow(state);
  }

  async start() {
    if (!this.path) return;
    $("analyse").disabled = true;
    try {
      this.follow(await api("POST", this.path, {}));
    } catch (error) {
      this.say(`Error: ${error.message}`);
      $("analyse").disabled = false;
    }
  }

  async cancel() {
    this.stopPolling();
    try {
      await api("DELETE", this.path);
    } catch {
      // already gone: nothing to cancel
    }
    this.clear();
    this.say("Analysis cancelled.");
  }

  follow(state) {
    const path = this.path;
    if (state.state === "done") {
      this.showResult(state.analysis);
      return;
    }
    if (state.state === "failed") {
      this.clear();
      this.say(state.error);
      return;
    }
    $("analyse").hidden = true;
    $("analysis-cancel").hidden = false;
    $("analysis-progress-label").hidden = false;
    // The worker counts positions, the last first: the one after each move and the
    // start, a move judged once the positions on both sides of it are searched. It counts
    // them only once it has started.
    const moves = state.total - 1;
    const judged = Math.max(0, state.done - 1);
    $("analysis-progress").max = Math.max(1, moves);
    $("analysis-progress").value = judged;
    this.say(state.state === "queued" ? "Waiting for a free worker…"
      : moves < 1 ? "Starting the search…"
      : `Judging the moves from the end of the game back: ${judged} of ${moves} done…`);
    $("analysis").dataset.state = state.state;
    this.polling = setTimeout(async () => {
      this.polling = null;
      let next;
      try {
        next = await api("GET", path);
      } catch (error) {
        if (path === this.path) {
          this.clear();
          this.say(`Error: ${error.message}`);
        }
        return;
      }
      if (path === this.path) this.follow(next);
    }, POLL_MS);
  }

  stopPolling() {
    if (this.polling !== null) clearTimeout(this.polling);
    this.polling = null;
  }

  say(text) {
    $("analysis-status").textContent = text;
  }

  clear() {
    this.result = null;
    $("analyse").hidden = false;
    $("analyse").disabled = false;
    $("analysis-cancel").hidden = true;
    $("analysis-progress-label").hidden = true;
    $("analysis-moves").hidden = true;
    $("analysis-sides").hidden = true;
    $("analysis-legend").hidden = true;
    $("analysis").dataset.state = "none";
    this.say("Each move against the best move the agent finds in its position.");
    this.onResult();
  }

  showResult(result) {
    this.result = result;
    $("analyse").hidden = true;
    $("analysis-cancel").hidden = true;
    $("analysis-progress-label").hidden = true;
    const exact = result.moves.filter((move) => move.exact).length;
    const marked = `(marked ${this.exactMark})`;
    const judged = exact === result.moves.length ? `every move judged exactly ${marked}`
      : `${plural(exact, "move")} of ${result.moves.length} judged exactly ${marked}, the rest by the search's estimate`;
    this.say(`Every position searched with ${result.nodes.toLocaleString("en")} nodes; ${judged}.`);
    this.showSides(result);
    const list = $("analysis-moves");
    list.replaceChildren(...result.moves.map((move) => this.moveItem(move)));
    list.hidden = false;
    $("analysis-legend").hidden = false;
    $("analysis").dataset.state = "done";
    this.onResult();
  }

  showSides(result) {
    const table = $("analysis-sides");
    const head = document.createElement("tr");
    head.append(cell("th", "side"), cell("th", "points given away"), cell("th", "accuracy"), cell("th", "?! / ? / ??"));
    const rows = ["A", "B"].map((side) => {
      const summary = result.sides[side];
      const row = document.createElement("tr");
      const hints = result.hints[side] ? `, ${plural(result.hints[side], "hint")}` : "";
      row.append(
        cell("th", `${side} ${summary.agent}${hints}`),
        cell("td", `${summary.points_lost}`),
        cell("td", summary.accuracy === null ? "–" : `${summary.accuracy.toFixed(1)}%`),
        cell("td", `${summary.labels.inaccuracy} / ${summary.labels.mistake} / ${summary.labels.blunder}`),
      );
      return row;
    });
    table.replaceChildren(head, ...rows);
    table.hidden = false;
  }

  moveItem(move) {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.number = move.number;
    button.dataset.label = move.label;
    const exact = move.exact ? this.exactMark : "";
    const verdict = move.points_lost
      ? `gave ${move.points_lost} away, best ${move.best_move} ${signed(move.best_value)}${exact}`
      : `best, ${signed(move.best_value)}${exact}`;
    button.append(
      cell("span", `${move.number}.`, "number"),
      cell("span", `${move.side} ${move.move} (${move.points}): ${verdict}`),
      cell("span", `${move.label}${MARKS[move.label] ? ` ${MARKS[move.label]}` : ""}`, `label-${move.label}`),
    );
    button.addEventListener("click", () => this.onPick(move.number));
    item.append(button);
    return item;
  }

  // The list follows the replay: the move about to be played is the current one.
  showStep(step) {
    if (!this.result) return;
    const list = $("analysis-moves");
    for (const button of list.querySelectorAll("button")) {
      const current = Number(button.dataset.number) === step + 1;
      button.setAttribute("aria-current", String(current));
      const top = button.parentElement.offsetTop;   // the list scrolls, not the page
      if (current && (top < list.scrollTop || top + button.offsetHeight > list.scrollTop + list.clientHeight)) {
        list.scrollTop = top - list.clientHeight / 2;
      }
    }
  }

  // The cells of the agent's best move in the position before move `step + 1`, or none.
  bestCells(step) {
    const move = this.result?.moves[step];
    return move ? groupCells(this.game.rows[step], ...parseCellName(move.best_move)) : [];
  }

  // Chart marks: [{index, label, text}] for the moves labelled inaccuracy or worse.
  marks() {
    if (!this.result) return [];
    return this.result.moves.filter((move) => MARKS[move.label]).map((move) => ({
      index: move.number - 1, label: move.label, text: MARKS[move.label],
      title: `move ${move.number}, ${move.side} ${move.move}: ${move.label}, gave ${move.points_lost} away`,
    }));
  }
}
