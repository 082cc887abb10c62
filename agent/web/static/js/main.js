// The page: three views behind tabs (arrow keys move between tabs, as WAI-ARIA's tab
// pattern has it), set up once the server has said what it offers.

import { api } from "./api.js";
import { showPhases } from "./phases.js";
import { startPlay } from "./play.js";
import { startReplay } from "./replay.js";

const tabs = [...document.querySelectorAll('[role="tab"]')];

function selectTab(chosen) {
  for (const tab of tabs) {
    const selected = tab === chosen;
    tab.setAttribute("aria-selected", String(selected));
    tab.tabIndex = selected ? 0 : -1;
    document.getElementById(tab.getAttribute("aria-controls")).hidden = !selected;
  }
  chosen.focus();
}

function setUpTabs() {
  tabs.forEach((tab, i) => {
    tab.addEventListener("click", () => selectTab(tab));
    tab.addEventListener("keydown", (event) => {
      const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
      if (step) selectTab(tabs[(i + step + tabs.length) % tabs.length]);
    });
  });
}

async function start() {
  setUpTabs();
  let options;
  try {
    options = await api("GET", "/api/options");
  } catch (error) {
    document.getElementById("play-error").textContent = `Error: ${error.message}`;
    return;
  }
  const openRecords = startReplay(options, showPhases);
  // A finished game analysed: opened in the Replay view as its saved record would be.
  startPlay(options, (gameId) => {
    selectTab(document.getElementById("tab-replay"));
    openRecords(api("POST", `/api/games/${gameId}/replay`), null, true);
  });
  document.body.dataset.ready = "true";
}

start();
