// The Replay view: a file of recorded games (from the server's --records folder, uploaded,
// or a game just played in the page), one game at a time, stepped through or played, with
// A's margin after every move charted and the game's analysis beside the board.

import { AnalysisPanel } from "./analysis.js";
import { api } from "./api.js";
import { BoardView, reducedMotion } from "./board.js";
import { drawLineChart } from "./chart.js";
import { plural } from "./words.js";

const $ = (id) => document.getElementById(id);
const PLAY_STEP_MS = 700;

// Short enough for a phone's width: the label above it says "Game".
export function gameTitle(game) {
  return `${game.game}: A ${game.agents.A} ${game.scores.A} – B ${game.agents.B} ${game.scores.B}, ${game.first} first`;
}

// onRecords(file) when a file of records is opened (the Phases view shows it too).
// Returns open(loading, name, analyse): show the file the promise `loading` gives, named
// `name`, and start the first game's analysis when `analyse` says so (a game played in
// the page, which neither the records list nor the file chooser then names).
export function startReplay(options, onRecords) {
  const board = new BoardView($("replay-board"), { label: "Replayed board" });
  const analysis = new AnalysisPanel(options, {
    onPick: (number) => {
      stop();
      goTo(number - 1);
      // on a narrow screen the list is below the board: bring the position into view
      const top = $("replay-board").getBoundingClientRect().top;
      if (top < 0 || top > window.innerHeight / 2) {
        $("replay-board").scrollIntoView({ behavior: reducedMotion() ? "auto" : "smooth" });
      }
    },
    onResult: () => game && goTo(step),
  });
  let file = null;      // the opened file: id, label, games, phases
  let game = null;      // the game shown: rows, moves, margins ...
  let step = 0;         // moves played on the board shown
  let timer = null;

  if (options.records.length) {
    for (const name of options.records) $("record-name").add(new Option(name, name));
    $("open-record").hidden = false;
  }

  // `source`: "list" (the server's --records), "upload", or "game" (played in the page).
  async function open(loading, name, analyse = false, source = "game") {
    $("replay-error").textContent = "";
    stop();
    try {
      file = await loading;
    } catch (error) {
      $("replay-error").textContent = `Error: ${error.message}`;
      return;
    }
    file.label = name || file.label;
    // each control names the file on screen, or none when it came from elsewhere
    if (source !== "list") $("record-name").selectedIndex = -1;
    if (source !== "upload") $("record-upload").value = "";
    $("replay-file").textContent = `${file.label}: ${plural(file.games.length, "game")}`;
    $("replay-game").replaceChildren(...file.games.map((g) => new Option(gameTitle(g), g.index)));
    $("replay").hidden = false;
    onRecords(file);
    await showGame(0);
    if (analyse && game) await analysis.start();
  }

  async function showGame(index) {
    stop();
    try {
      game = await api("GET", `/api/replays/${file.id}/games/${index}`);
    } catch (error) {
      $("replay-error").textContent = `Error: ${error.message}`;
      return;
    }
    $("replay").dataset.game = index;
    $("replay").dataset.moves = game.margins.length;
    const clocks = game.time.A === game.time.B ? `${game.time.A} s each` : `A ${game.time.A} s, B ${game.time.B} s`;
    $("replay-summary").textContent = `${game.size}x${game.size}, ${plural(game.types, "type")}, ${clocks}. `
      + `Result: ${game.winner ? `${game.winner} (${game.agents[game.winner]}) wins` : "draw"}: ${game.reason}.`;
    const hints = Object.entries(game.hints || {}).map(([side, count]) => `${side} took ${plural(count, "hint")}`);
    if (hints.length) $("replay-summary").textContent += ` ${hints.join(", ")}.`;
    board.render(game.rows[0]);
    step = 0;
    await analysis.show(file.id, index, game);
    await goTo(0);
  }

  function describe(k) {
    const agents = game.agents;
    if (k === 0) return `Start: ${game.first} (${agents[game.first]}) moves first.`;
    const move = game.moves[k - 1];
    const scores = { A: 0, B: 0 };
    for (const m of game.moves.slice(0, k)) scores[m.side] += m.points;
    let text = `Move ${k} of ${game.margins.length}: ${move.side} (${agents[move.side]}) took ${move.move}: `
      + `${move.cells.length} fruit, ${plural(move.points, "point")}, ${move.cpu.toFixed(3)} s ${move.measured}. `
      + `Score A ${scores.A} – B ${scores.B}.`;
    const fault = game.moves[k];
    if (fault && fault.fault) text += ` Then ${fault.side} (${agents[fault.side]}) lost: ${fault.fault}.`;
    return text;
  }

  // Show the position after move k, animating the move when `animate` and k is the next.
  // `step` is k at once, and so are the text, the chart and the list, so that a click
  // during the animation counts from k; a later goTo() cuts the animation short and shows
  // its own position instead. The board's marks come once it shows k.
  async function goTo(k, animate = false) {
    k = Math.max(0, Math.min(game.margins.length, k));
    const from = step;
    step = k;
    analysis.showStep(k);
    $("replay-step").textContent = describe(k);
    $("replay").dataset.step = k;
    drawLineChart($("margin-chart"), [{
      name: "A − B", className: "series-a", points: game.margins.map((m, i) => [i + 1, m]),
    }], {
      xLabel: "move", yLabel: "A's margin", xRange: [1, Math.max(1, game.margins.length)],
      current: k > 0 ? { series: 0, index: k - 1 } : null,
      onPoint: (_, index) => { stop(); goTo(index + 1); },
      marks: analysis.marks(),
      onMark: (index) => { stop(); goTo(index); },
    });
    if (animate && k === from + 1) {
      if (board.rows !== game.rows[from]) board.render(game.rows[from]);  // a move still being animated
      if (!await board.animateMove(game.moves[from].cells, game.rows[k])) return;
    } else {
      board.render(game.rows[k]);
    }
    const next = game.moves[k];
    board.mark(next && !next.fault ? next.cells : [], "next");
    board.mark(analysis.bestCells(k), "best");
  }

  function stop() {
    if (timer !== null) clearInterval(timer);
    timer = null;
    $("step-play").textContent = "Play";
    $("step-play").setAttribute("aria-label", "Play through");
  }

  function togglePlay() {
    if (timer !== null) {
      stop();
      return;
    }
    if (step === game.margins.length) goTo(0);
    $("step-play").textContent = "Pause";
    $("step-play").setAttribute("aria-label", "Pause");
    let stepping = false;
    timer = setInterval(async () => {
      if (stepping) return;
      if (step >= game.margins.length) {
        stop();
        return;
      }
      stepping = true;
      await goTo(step + 1, true);
      stepping = false;
    }, PLAY_STEP_MS);
  }

  $("open-record").addEventListener("submit", (event) => {
    event.preventDefault();
    const name = $("record-name").value;
    open(api("POST", "/api/records/open", { name }), name, false, "list");
  });
  $("record-upload").addEventListener("change", (event) => {
    const chosen = event.target.files[0];
    if (chosen) open(api("POST", "/api/records/upload", chosen), chosen.name, false, "upload");
  });
  $("replay-game").addEventListener("change", (event) => showGame(Number(event.target.value)));
  $("step-first").addEventListener("click", () => { stop(); goTo(0); });
  $("step-back").addEventListener("click", () => { stop(); goTo(step - 1); });
  $("step-next").addEventListener("click", () => { stop(); goTo(step + 1, true); });
  $("step-last").addEventListener("click", () => { stop(); goTo(game.margins.length); });
  $("step-play").addEventListener("click", togglePlay);
  $("view-replay").addEventListener("keydown", (event) => {
    if (!game || event.target.closest("select, input")) return;
    const jumps = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: game.margins.length };
    if (event.key in jumps) {
      event.preventDefault();
      stop();
      goTo(jumps[event.key], event.key === "ArrowRight");
    }
  });
  return open;
}
