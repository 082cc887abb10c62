// The Play view: a first screen that explains the game, then a game against a built-in
// player. The server holds the game and judges every move; the page shows its board,
// animates each move, keeps the clocks ticking and asks the server for hints.

import { api } from "./api.js";
import { BoardView } from "./board.js";
import { plural, signed } from "./words.js";

const $ = (id) => document.getElementById(id);
const AGENT_SHOW_MS = 400;   // the agent's group stays lit this long before it goes
// The built-in players, named plainly for the form; a name the server adds later shows as is.
const PLAYER_TITLES = {
  ours: "the agent (strongest)",
  minimax3: "a 3-move lookahead (strong)",
  greedy: "greedy: always the biggest group (fair)",
  random: "random moves (easy)",
};
// How to move, as the device allows: a finger cannot point without tapping.
const HOW_TO_MOVE = {
  pointer: "Point at a fruit to see its group, or focus the board (Tab) and move with the arrow keys; "
    + "a click or Enter takes the group.",
  touch: "Tap a fruit to see its group and its points; tap it again to take it, or another to choose again.",
};
const TOUCH_SCREEN = window.matchMedia("(pointer: coarse)");
// The intro's example: taking the three 1s scores 9 points.
const EXAMPLE = { rows: ["201", "211", "002"], group: [[0, 2], [1, 1], [1, 2]] };

// Rounded to the tenth first: 59.96 s is 1:00.0, never 60.0 s or 0:60.0.
export function formatClock(seconds) {
  const tenths = Math.round(Math.max(0, seconds) * 10);
  if (tenths < 600) return `${(tenths / 10).toFixed(1)} s`;
  const minutes = Math.floor(tenths / 600);
  return `${minutes}:${((tenths - 600 * minutes) / 10).toFixed(1).padStart(4, "0")}`;
}

function showExample() {
  const example = new BoardView($("example-board"), {
    label: "Example: a 3 by 3 board; the three 1s at B2 make one group",
  });
  example.render(EXAMPLE.rows);
  example.mark(EXAMPLE.group, "lit");
}

// onAnalyse(gameId) when the person asks for the finished game's analysis.
export function startPlay(options, onAnalyse) {
  const form = $("new-game");
  const view = $("game");
  let game = null;
  let receivedAt = 0;          // performance.now() when `game` arrived
  let busy = false;
  let hint = null;             // the hint shown: the server's answer, for the position it names

  showExample();

  for (const key of ["size", "types"]) {
    form.elements[key].min = options.limits[key][0];
    form.elements[key].max = options.limits[key][1];
  }
  for (const key of ["clock", "agent_clock"]) {
    form.elements[key].min = 0.1;
    form.elements[key].max = options.limits.clock[1];
  }
  for (const name of options.players) form.elements.opponent.add(new Option(PLAYER_TITLES[name] || name, name));
  for (const [key, value] of Object.entries(options.defaults)) form.elements[key].value = value;
  const defaults = options.defaults;
  $("quick-play-text").textContent = `${defaults.size}×${defaults.size} board, ${defaults.types} kinds of fruit, `
    + `against ${PLAYER_TITLES[defaults.opponent] || defaults.opponent}; `
    + `${defaults.first === "you" ? "you move first" : "the agent moves first"}.`;

  const board = new BoardView($("play-board"), {
    label: "Game board: arrow keys move, Enter takes the group",
    onPick: (group) => humanMove(group),
    onLight: (group, tapped) => {
      $("hover-info").textContent = group
        ? `${group.move}: ${group.cells.length} fruit, ${plural(group.points, "point")}`
          + `${tapped ? ". Tap it again to take it." : ""}`
        : "";
    },
  });
  const showHowToMove = () => {
    $("how-to-move").textContent = TOUCH_SCREEN.matches ? HOW_TO_MOVE.touch : HOW_TO_MOVE.pointer;
  };
  showHowToMove();
  TOUCH_SCREEN.addEventListener("change", showHowToMove);

  function agentLabel() {
    return game ? `Agent (${game.opponent})` : "Agent";
  }

  function setState(state) {
    busy = state === "busy";
    view.dataset.state = state;
    board.setEnabled(state === "ready");
    $("hint").disabled = state !== "ready";
  }

  function showHint(found) {
    hint = found;
    board.mark(found ? found.cells : [], "hinted");
    $("hint-text").textContent = found
      ? `Hint: ${found.move}, ${found.cells.length} fruit, ${plural(found.cells.length ** 2, "point")}. `
        + `The position is worth ${signed(found.value)} to you over the rest of the game`
        + `${found.exact ? " (exact)" : " (the agent's estimate)"}.`
      : "";
  }

  function clockLeft(side) {
    const running = game.turn === "you" && side === "you";
    return game.clocks[side] - (running ? (performance.now() - receivedAt) / 1000 : 0);
  }

  function showClocks() {
    if (!game) return;
    $("clock-you").textContent = formatClock(clockLeft("you"));
    $("clock-agent").textContent = formatClock(clockLeft("agent"));
  }

  function show() {
    view.dataset.gameId = game.id;
    view.dataset.moves = game.moves.length;
    $("agent-name").textContent = agentLabel();
    $("score-you").textContent = game.scores.you;
    $("score-agent").textContent = game.scores.agent;
    $("side-you").classList.toggle("to-move", game.turn === "you");
    $("side-agent").classList.toggle("to-move", game.turn === "agent");
    showClocks();
    board.setGroups(game.groups);
    const last = game.last_move;
    const lastText = last
      ? `${last.side === "you" ? "You" : "The agent"} took ${last.move}: ${last.cells.length} fruit, `
        + `${plural(last.points, "point")}. `
      : "";
    $("how-to-move").hidden = game.over;
    $("hint").hidden = game.over;
    if (hint && (game.over || hint.position !== game.moves.length)) showHint(null);   // a hint is its position's
    if (game.over) {
      $("turn").textContent = lastText + "Game over.";
      const outcome = game.winner === null ? "Draw" : game.winner === "you" ? "You win" : `${agentLabel()} wins`;
      const hints = game.hints ? ` You took ${plural(game.hints, "hint")}.` : "";
      $("result-text").textContent = `${outcome}: ${game.reason}.${hints}`;
      $("save-game").href = `/api/games/${game.id}/record`;
      $("save-game").download = `fruit-rage-${game.size}x${game.size}-seed-${game.seed}.jsonl`;
      $("result").hidden = false;
    } else {
      $("turn").textContent = lastText + (game.turn === "you" ? "Your move." : "The agent is thinking…");
    }
  }

  // Take the server's next state: animate the move it adds, then show it.
  async function apply(next) {
    const move = next.moves.length > game.moves.length ? next.last_move : null;
    if (move && move.side === "agent") {
      board.mark(move.cells, "lit");
      await new Promise((resolve) => setTimeout(resolve, AGENT_SHOW_MS));
    }
    if (move) await board.animateMove(move.cells, next.rows);
    else board.render(next.rows);
    game = next;
    receivedAt = performance.now();
    show();
  }

  async function settle() {
    if (game.over) {
      setState("over");
      if (document.activeElement === board.svg) $("again").focus();
    } else if (game.turn === "agent") {
      await agentMove();
    } else {
      setState("ready");
    }
  }

  async function request(method, path, body) {
    $("play-error").textContent = "";
    try {
      return await api(method, path, body);
    } catch (error) {
      $("play-error").textContent = `Error: ${error.message}`;
      return null;
    }
  }

  async function newGame(event) {
    event?.preventDefault();
    if (!form.reportValidity()) return;
    setState("busy");
    const body = {};
    for (const key of ["size", "types"]) body[key] = Number(form.elements[key].value);
    for (const key of ["clock", "agent_clock"]) body[key] = Number(form.elements[key].value);
    for (const key of ["first", "opponent"]) body[key] = form.elements[key].value;
    if (form.elements.seed.value !== "") body.seed = Number(form.elements.seed.value);
    const created = await request("POST", "/api/games", body);
    if (!created) {
      setState(game && !game.over ? "ready" : "over");
      return;
    }
    game = created;
    receivedAt = performance.now();
    view.hidden = false;
    $("view-play").dataset.mode = "game";
    $("result").hidden = true;
    showHint(null);
    board.render(game.rows);
    show();
    await settle();
  }

  async function humanMove(group) {
    if (busy || !game || game.turn !== "you") return;
    setState("busy");
    const next = await request("POST", `/api/games/${game.id}/move`, { move: group.move });
    await apply(next || (await request("GET", `/api/games/${game.id}`)) || game);
    await settle();
  }

  async function askHint() {
    if (busy || !game || game.turn !== "you") return;
    $("hint").disabled = true;
    const found = await request("POST", `/api/games/${game.id}/hint`);
    if (found && game.moves.length === found.position && game.turn === "you") {
      game.hints = found.hints;
      showHint(found);
    }
    $("hint").disabled = busy || game.turn !== "you";
  }

  async function agentMove() {
    setState("busy");
    const next = await request("POST", `/api/games/${game.id}/agent-move`);
    if (!next) {
      setState("over");
      return;
    }
    await apply(next);
    await settle();
  }

  // The person's clock runs out on the page too: ask the server, which judges it.
  setInterval(async () => {
    showClocks();
    if (game && !busy && game.turn === "you" && clockLeft("you") <= 0) {
      setState("busy");
      const next = await request("GET", `/api/games/${game.id}`);
      if (next) await apply(next);
      await settle();
    }
  }, 200);

  form.addEventListener("submit", newGame);
  $("again").addEventListener("click", () => newGame());
  $("quick-play").addEventListener("click", () => {
    for (const [key, value] of Object.entries(options.defaults)) form.elements[key].value = value;
    form.elements.seed.value = "";
    newGame();
  });
  $("hint").addEventListener("click", askHint);
  $("analyse-game").addEventListener("click", () => onAnalyse(game.id));
  $("settings").addEventListener("click", () => {
    $("view-play").dataset.mode = "setup";
    form.elements.size.focus();
  });
}
