// The Play view: a game against a built-in player. The server holds the game and judges
// every move; the page shows its board, animates each move and keeps the clocks ticking.

import { api } from "./api.js";
import { BoardView } from "./board.js";

const $ = (id) => document.getElementById(id);
const AGENT_SHOW_MS = 400;   // the agent's group stays lit this long before it goes

export function formatClock(seconds) {
  const s = Math.max(0, seconds);
  if (s < 60) return `${s.toFixed(1)} s`;
  const minutes = Math.floor(s / 60);
  return `${minutes}:${(s - 60 * minutes).toFixed(1).padStart(4, "0")}`;
}

function plural(count, word) {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

export function startPlay(options) {
  const form = $("new-game");
  const view = $("game");
  let game = null;
  let receivedAt = 0;          // performance.now() when `game` arrived
  let busy = false;

  for (const key of ["size", "types"]) {
    form.elements[key].min = options.limits[key][0];
    form.elements[key].max = options.limits[key][1];
  }
  for (const key of ["clock", "agent_clock"]) {
    form.elements[key].min = 0.1;
    form.elements[key].max = options.limits.clock[1];
  }
  for (const name of options.players) form.elements.opponent.add(new Option(name, name));
  for (const [key, value] of Object.entries(options.defaults)) form.elements[key].value = value;

  const board = new BoardView($("play-board"), {
    label: "Game board: arrow keys move, Enter takes the group",
    onPick: (group) => humanMove(group),
    onLight: (group) => {
      $("hover-info").textContent = group
        ? `${group.move}: ${group.cells.length} fruit, ${plural(group.points, "point")}`
        : "";
    },
  });

  function agentLabel() {
    return game ? `Agent (${game.opponent})` : "Agent";
  }

  function setState(state) {
    busy = state === "busy";
    view.dataset.state = state;
    board.setEnabled(state === "ready");
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
    if (game.over) {
      $("turn").textContent = lastText + "Game over.";
      const outcome = game.winner === null ? "Draw" : game.winner === "you" ? "You win" : `${agentLabel()} wins`;
      $("result-text").textContent = `${outcome}: ${game.reason}.`;
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
    $("result").hidden = true;
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
}
