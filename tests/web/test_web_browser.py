"""The page in a real browser: headless Chromium (Debian's chromium and chromium-driver)
driven by selenium against a real server on 127.0.0.1. A whole 6x6 game is played by
clicking groups, the board drawn checked against the server's after every move; a
recorded match is opened and stepped through; the phases are those `fruit-rage phases`
prints. Each view is saved as a screenshot in the test's tmp folder (and, when
FRUIT_RAGE_WEB_SCREENSHOTS names a folder, there too: docs/images comes from it).

Under CI=true a browser that cannot start fails the test; elsewhere it skips, saying why
(tests/browser_helpers.py)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys

import httpx
import pytest
from browser_helpers import open_page, screenshot_saver, start_chromium, wait
from paths import PROJECT_ROOT
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select
from web_helpers import children, running_server

from agent.arena.records.reading import read_records
from agent.board import Board, Move
from agent.cli_support import plural

pytestmark = pytest.mark.slow

MATCH = ["match", "greedy", "random", "--games", "2", "--size", "6", "--types", "3", "--time", "10", "--seed", "1"]

# The board as drawn: every fruit's digit at the cell its transform puts it in.
READ_BOARD = """
const svg = document.querySelector(arguments[0] + ' svg');
const n = Number(svg.dataset.size);
const rows = Array.from({length: n}, () => Array(n).fill('*'));
for (const g of svg.querySelectorAll('.fruit')) {
  const [, col, row] = g.getAttribute('transform').match(/translate\\((\\d+) (\\d+)\\)/).map(Number);
  if (!g.classList.contains('fruit-' + g.textContent) || rows[row][col] !== '*') return null;
  rows[row][col] = g.textContent;
}
return rows.map((r) => r.join(''));
"""

# The gravity the page animates, applied: fruit that does not fall stays, the rest lands
# where board.js's falls() says.
PAGE_GRAVITY = """
const [rows, cells, done] = arguments;
import('/static/js/board.js').then(({falls}) => {
  const gone = new Set(cells.map(([r, c]) => r + ',' + c));
  const after = rows.map((line, r) => [...line].map((ch, c) => gone.has(r + ',' + c) ? '*' : ch));
  const moves = falls(rows, cells);
  for (const [from, col] of moves) after[from][col] = '*';
  for (const [from, col, to] of moves) after[to][col] = rows[from][col];
  done(after.map((line) => line.join('')));
});
"""


@pytest.fixture(scope="module")
def records_dir(tmp_path_factory):
    folder = tmp_path_factory.mktemp("records")
    subprocess.run(
        [sys.executable, "-m", "agent", *MATCH, "--out", str(folder / "match.jsonl")],
        cwd=PROJECT_ROOT,
        check=True,
        capture_output=True,
        timeout=120,
    )
    return folder


@pytest.fixture(scope="module")
def server(records_dir, tmp_path_factory):
    with running_server("--records", records_dir, log_path=tmp_path_factory.mktemp("server") / "log") as (base, _):
        yield base


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    driver = start_chromium(tmp_path_factory.mktemp("chromium-profile"))
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def screenshots(tmp_path_factory):
    return screenshot_saver(tmp_path_factory.mktemp("screenshots"))


def game_view(driver):
    return driver.find_element(By.ID, "game")


def settled(driver, moves_before: int) -> bool:
    view = game_view(driver)
    return int(view.get_attribute("data-moves") or 0) > moves_before and view.get_attribute("data-state") in (
        "ready",
        "over",
    )


def start_game(driver, **settings) -> dict:
    form = driver.find_element(By.ID, "new-game")
    for name, value in settings.items():
        field = form.find_element(By.NAME, name)
        if field.tag_name == "select":
            Select(field).select_by_value(value)
        else:
            field.clear()
            field.send_keys(str(value))
    driver.find_element(By.ID, "start").click()
    wait(
        driver,
        lambda: (
            game_view(driver).get_attribute("data-state") in ("ready", "over")
            and game_view(driver).get_attribute("data-game-id")
        ),
    )


def server_game(server: str, driver) -> dict:
    game_id = game_view(driver).get_attribute("data-game-id")
    return httpx.get(f"{server}/api/games/{game_id}", timeout=10).json()


def fruit_at(driver, board: str, cell):
    return driver.find_element(By.CSS_SELECTOR, f'{board} .fruit[data-row="{cell[0]}"][data-col="{cell[1]}"]')


def test_a_whole_game_is_played_by_clicking_groups(browser, server, screenshots):
    open_page(browser, server)
    start_game(browser, size=6, types=3, opponent="ours", agent_clock=5, clock=300, first="you", seed=21)
    for turn in range(40):
        game = server_game(server, browser)
        assert browser.execute_script(READ_BOARD, "#play-board") == game["rows"], f"turn {turn}"
        if game["over"]:
            break
        largest = max(game["groups"], key=lambda group: group["points"])
        target = fruit_at(browser, "#play-board", largest["cells"][0])
        ActionChains(browser).move_to_element(target).perform()
        assert (
            browser.find_element(By.ID, "hover-info").text
            == f"{largest['move']}: {len(largest['cells'])} fruit, {plural(largest['points'], 'point')}"
        )
        lit = browser.find_elements(By.CSS_SELECTOR, "#play-board .fruit.lit")
        assert sorted((int(g.get_attribute("data-row")), int(g.get_attribute("data-col"))) for g in lit) == sorted(
            map(tuple, largest["cells"])
        )
        if turn == 2:
            screenshots(browser, "play")
        moves_before = len(game["moves"])
        target.click()
        wait(browser, lambda before=moves_before: settled(browser, before))
    else:
        pytest.fail("the game did not end in 40 turns")
    result = browser.find_element(By.ID, "result-text")
    assert result.is_displayed() and game["reason"] in result.text
    winner = {"you": "You win", "agent": "Agent (ours) wins", None: "Draw"}[game["winner"]]
    assert result.text.startswith(winner)
    assert browser.find_element(By.ID, "again").is_displayed()
    assert game["rows"] == ["******"] * 6


def test_a_group_is_taken_from_the_keyboard(browser, server):
    open_page(browser, server)
    start_game(browser, size=6, types=3, opponent="greedy", first="you", seed=8)
    board = browser.find_element(By.CSS_SELECTOR, "#play-board svg")
    browser.execute_script("arguments[0].focus()", board)
    ActionChains(browser).send_keys(Keys.ARROW_DOWN * 7 + Keys.ARROW_LEFT * 7 + Keys.ARROW_RIGHT).perform()
    assert browser.find_element(By.ID, "hover-info").text.startswith(
        Board(server_game(server, browser)["rows"]).group_at(Move(5, 1)).move.name + ":"
    )
    ActionChains(browser).send_keys(Keys.ENTER).perform()
    wait(browser, lambda: settled(browser, 1))
    first = server_game(server, browser)["moves"][0]
    assert first["side"] == "you"
    assert first["move"] == Board.random(8, 6, 3).group_at(Move(5, 1)).move.name


def pool_workers(server_pid: int) -> list:
    """The server's worker processes (spawned), not its resource tracker."""
    found = []
    for pid in children(server_pid):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                if b"spawn_main" in cmdline.read():
                    found.append(pid)
        except OSError:
            continue
    return found


def test_the_agent_moves_and_hints_come_after_the_servers_idle_workers_are_killed(browser, tmp_path):
    """Killed while idle, a worker is replaced at the next task: the game goes on, and a
    hint comes (before: every later move ended its game, "BrokenProcessPool")."""
    with running_server(log_path=tmp_path / "log") as (base, process):
        open_page(browser, base)
        start_game(browser, size=6, types=3, opponent="greedy", first="agent", seed=5)
        wait(browser, lambda: server_game(base, browser)["turn"] == "you")
        workers = pool_workers(process.pid)
        assert workers
        for pid in workers:
            os.kill(pid, signal.SIGKILL)
        game = server_game(base, browser)
        fruit_at(browser, "#play-board", game["groups"][0]["cells"][0]).click()
        wait(browser, lambda: settled(browser, len(game["moves"]) + 1))  # the person's move, then the agent's
        game = server_game(base, browser)
        assert not game["over"], game["reason"]  # a 6x6 board of 3 types lasts longer than three moves
        assert [move["side"] for move in game["moves"]] == ["agent", "you", "agent"]
        browser.find_element(By.ID, "hint").click()
        wait(browser, lambda: browser.find_element(By.ID, "hint-text").text.startswith("Hint: "))


def test_a_move_whose_worker_is_stopped_is_lost_as_stalled_and_the_server_still_stops(browser, tmp_path):
    """A worker stopped (SIGSTOP) mid-move is stopped by the referee's idle rule: the agent
    loses its move as stalled (it waited for ever before); a server holding a stopped
    worker ends at SIGTERM (its shutdown waited for the worker for ever)."""
    with running_server(log_path=tmp_path / "log") as (base, process):
        open_page(browser, base)
        start_game(browser, size=6, types=3, opponent="greedy", first="agent", agent_clock=1, seed=5)
        wait(browser, lambda: server_game(base, browser)["turn"] == "you")
        for pid in pool_workers(process.pid):
            os.kill(pid, signal.SIGSTOP)
        game = server_game(base, browser)
        fruit_at(browser, "#play-board", game["groups"][0]["cells"][0]).click()
        wait(browser, lambda: game_view(browser).get_attribute("data-state") == "over", seconds=120)
        game = server_game(base, browser)
        assert game["winner"] == "you" and game["reason"].startswith("the agent stopped: used "), game["reason"]
        assert "(asleep, blocked or stopped)" in browser.find_element(By.ID, "result-text").text
        open_page(browser, base)
        start_game(browser, size=6, types=3, opponent="greedy", first="you", seed=6)
        browser.find_element(By.ID, "hint").click()  # a worker starts for it
        wait(browser, lambda: browser.find_element(By.ID, "hint-text").text.startswith("Hint: "))
        stopped = pool_workers(process.pid)
        for pid in stopped:
            os.kill(pid, signal.SIGSTOP)
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=60)
        assert stopped and not any(os.path.exists(f"/proc/{pid}") for pid in stopped)


def test_the_page_animates_the_rules_gravity(browser, server):
    """Every group of positions along a few games: the falls the page animates end on
    the board the rules give."""
    open_page(browser, server)
    for seed in range(3):
        board = Board.random(seed, 7, 3)
        for _ in range(6):
            for group in board.groups():
                after, _ = board.play(group.move)
                shown = browser.execute_async_script(PAGE_GRAVITY, list(board.rows), [list(c) for c in group.cells])
                assert shown == list(after.rows), (seed, board.rows, group.move.name)
            board, _ = board.play(max(board.groups(), key=lambda group: group.size).move)


def test_the_tabs_move_with_the_arrow_keys(browser, server):
    open_page(browser, server)
    browser.find_element(By.ID, "tab-play").click()
    ActionChains(browser).send_keys(Keys.ARROW_RIGHT).perform()
    assert browser.find_element(By.ID, "tab-replay").get_attribute("aria-selected") == "true"
    assert browser.find_element(By.ID, "view-replay").is_displayed()
    assert not browser.find_element(By.ID, "view-play").is_displayed()


def replay_step(driver) -> int:
    return int(driver.find_element(By.ID, "replay").get_attribute("data-step"))


def test_a_recorded_match_is_stepped_through_with_its_margin_chart(browser, server, records_dir, screenshots):
    records = read_records(str(records_dir / "match.jsonl"))
    open_page(browser, server)
    browser.find_element(By.ID, "tab-replay").click()
    Select(browser.find_element(By.ID, "record-name")).select_by_value("match.jsonl")
    browser.find_element(By.CSS_SELECTOR, "#open-record button").click()
    for index, record in enumerate(records):
        if index:
            Select(browser.find_element(By.ID, "replay-game")).select_by_value(str(index))
        wait(
            browser,
            lambda i=index: (
                browser.find_element(By.ID, "replay").get_attribute("data-game") == str(i) and replay_step(browser) == 0
            ),
        )
        legal = [move for move in record["moves"] if not move.get("fault")]
        points = browser.find_elements(By.CSS_SELECTOR, "#margin-chart circle.point")
        assert len(points) == len(legal) == int(browser.find_element(By.ID, "replay").get_attribute("data-moves"))
        board = Board(record["board"], record["types"])
        assert browser.execute_script(READ_BOARD, "#replay-board") == list(board.rows)
        for number, move in enumerate(legal, 1):
            browser.find_element(By.ID, "step-next").click()
            wait(browser, lambda n=number: replay_step(browser) == n)
            board, _ = board.play(Move.from_name(move["move"]))
            wait(browser, lambda rows=list(board.rows): browser.execute_script(READ_BOARD, "#replay-board") == rows, 10)
            current = browser.find_elements(By.CSS_SELECTOR, "#margin-chart circle.current")
            assert [c.get_attribute("data-index") for c in current] == [str(number - 1)]
            if index == 0 and number == len(legal) // 2:
                screenshots(browser, "replay")
        assert f"Move {len(legal)} of {len(legal)}" in browser.find_element(By.ID, "replay-step").text
        browser.find_element(By.ID, "step-first").click()
        wait(browser, lambda: replay_step(browser) == 0)


# Clicks the buttons of the ids arguments[0], one every arguments[1] ms, every animation
# the page starts kept in window.started; done(whether one was running at the second click).
CLICKS = """
const [ids, gap, done] = arguments;
window.started = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  const animation = animate.apply(this, args);
  window.started.push(animation);
  return animation;
};
let moving = false;
ids.forEach((id, k) => setTimeout(() => {
  if (k === 1) moving = window.started.some((animation) => animation.playState === 'running');
  document.getElementById(id).click();
  if (k === ids.length - 1) done(moving);
}, k * gap));
"""
# done() once every animation started has ended or been cancelled (idle: its finished
# promise is a new one, which never settles), and those its end started too, on a board
# since drawn again as well, where document.getAnimations() no longer sees them.
SETTLED = """
const done = arguments[0];
(async () => {
  for (let seen = -1; seen !== window.started.length;) {
    seen = window.started.length;
    const running = window.started.filter((animation) => animation.playState !== 'idle');
    await Promise.allSettled(running.map((animation) => animation.finished));
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  }
  done();
})();
"""


def open_the_recorded_match(driver, server) -> None:
    open_page(driver, server)
    driver.find_element(By.ID, "tab-replay").click()
    Select(driver.find_element(By.ID, "record-name")).select_by_value("match.jsonl")
    driver.find_element(By.CSS_SELECTOR, "#open-record button").click()
    wait(driver, lambda: driver.find_element(By.ID, "replay").get_attribute("data-step") == "0")


@pytest.mark.parametrize(
    "clicks, gap_ms, step",
    [(["step-next"] * 3, 150, 3), (["step-next"] * 3, 0, 3), (["step-next", "step-back"], 100, 0)],
)
def test_every_replay_click_counts_however_fast(browser, server, records_dir, clicks, gap_ms, step):
    """Clicks that come while a move is animated each count: the board ends on the
    position they add up to, with its move's text."""
    (record, _) = read_records(str(records_dir / "match.jsonl"))
    open_the_recorded_match(browser, server)
    assert browser.execute_async_script(CLICKS, clicks, gap_ms)  # the clicks came during an animation
    browser.execute_async_script(SETTLED)
    assert replay_step(browser) == step
    board = Board(record["board"], record["types"])
    for move in [move for move in record["moves"] if not move.get("fault")][:step]:
        board, _ = board.play(Move.from_name(move["move"]))
    assert browser.execute_script(READ_BOARD, "#replay-board") == list(board.rows)
    shown = browser.find_element(By.ID, "replay-step").text
    assert shown.startswith(f"Move {step} of ") if step else shown.startswith("Start: ")


def test_the_records_list_names_no_file_while_another_is_on_screen(browser, server, records_dir, tmp_path):
    """A file uploaded after one opened from the server's list: the list then shows no
    file (and Open needs one chosen), and the file chooser none once the list's is back."""
    uploaded = tmp_path / "uploaded.jsonl"
    uploaded.write_text((records_dir / "match.jsonl").read_text())
    open_the_recorded_match(browser, server)
    browser.find_element(By.ID, "record-upload").send_keys(str(uploaded))
    wait(browser, lambda: browser.find_element(By.ID, "replay-file").text == "uploaded.jsonl: 2 games")
    assert browser.execute_script("return document.getElementById('record-name').selectedIndex") == -1
    assert not browser.execute_script("return document.getElementById('open-record').checkValidity()")
    Select(browser.find_element(By.ID, "record-name")).select_by_value("match.jsonl")
    browser.find_element(By.CSS_SELECTOR, "#open-record button").click()
    wait(browser, lambda: browser.find_element(By.ID, "replay-file").text == "match.jsonl: 2 games")
    assert browser.find_element(By.ID, "record-upload").get_attribute("value") == ""


def test_the_clock_rounds_to_a_tenth_and_never_shows_sixty_seconds(browser, server):
    open_page(browser, server)
    shown = browser.execute_async_script(
        "const done = arguments[0];"
        "import('/static/js/play.js').then(({formatClock}) =>"
        " done([59.94, 59.96, 60, 61.25, 119.96, 600.04, 0.04, -1].map(formatClock)));"
    )
    assert shown == ["59.9 s", "1:00.0", "1:00.0", "1:01.3", "2:00.0", "10:00.0", "0.0 s", "0.0 s"]


def test_a_recorded_match_plays_through_and_pauses(browser, server):
    open_page(browser, server)
    browser.find_element(By.ID, "tab-replay").click()
    browser.find_element(By.CSS_SELECTOR, "#open-record button").click()
    wait(browser, lambda: browser.find_element(By.ID, "replay").get_attribute("data-step") == "0")
    browser.find_element(By.ID, "step-play").click()
    wait(browser, lambda: replay_step(browser) >= 2)
    browser.find_element(By.ID, "step-play").click()
    paused_at = replay_step(browser)
    assert browser.find_element(By.ID, "step-play").text == "Play"
    browser.find_element(By.ID, "step-next").click()
    wait(browser, lambda: replay_step(browser) == paused_at + 1)


def test_an_uploaded_match_opens_too(browser, server, records_dir):
    open_page(browser, server)
    browser.find_element(By.ID, "tab-replay").click()
    browser.find_element(By.ID, "record-upload").send_keys(str(records_dir / "match.jsonl"))
    wait(browser, lambda: browser.find_element(By.ID, "replay-file").text == "match.jsonl: 2 games")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#replay-game option")) == 2


def test_a_malformed_upload_shows_the_servers_reason(browser, server, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"game": 1, "seed": 3}\n')
    open_page(browser, server)
    browser.find_element(By.ID, "tab-replay").click()
    browser.find_element(By.ID, "record-upload").send_keys(str(bad))
    wait(browser, lambda: browser.find_element(By.ID, "replay-error").text)
    assert (
        browser.find_element(By.ID, "replay-error").text
        == "Error: the uploaded file: game 1: the record names no agents A and B"
    )


def test_the_phases_are_those_fruit_rage_phases_prints(browser, server, records_dir, screenshots):
    printed = subprocess.run(
        [sys.executable, "-m", "agent", "phases", str(records_dir / "match.jsonl")],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
        env={**os.environ, "COLUMNS": "200"},
    ).stdout  # wide: no cell wraps
    # a row per tenth of the fruit gone: the mean moving first, then moving second
    rows = [
        re.findall(r"([-+]\d+\.\d)(?:\s*\[[^]]*\])?", line)[:2]
        for line in printed.splitlines()
        if re.match(r"\s*\d+%", line)
    ]
    open_page(browser, server)
    browser.find_element(By.ID, "tab-replay").click()
    browser.find_element(By.CSS_SELECTOR, "#open-record button").click()
    wait(browser, lambda: browser.find_element(By.ID, "replay").get_attribute("data-step") == "0")
    browser.find_element(By.ID, "tab-phases").click()
    table = browser.find_element(By.ID, "phases-table")
    shown = [  # as printed: a row per tenth, A's seconds in the last column
        [cell.text for cell in row.find_elements(By.TAG_NAME, "td")][:-1]
        for row in table.find_elements(By.CSS_SELECTOR, "tbody tr")
    ]
    assert len(rows) == 10 and shown == rows
    lines = browser.find_elements(By.CSS_SELECTOR, "#phases-chart polyline.series")
    points = browser.find_elements(By.CSS_SELECTOR, "#phases-chart g[data-series] circle.point")
    assert len(lines) == len(rows[0]) and len(points) == 10 * len(rows[0])
    screenshots(browser, "phases")
