"""The page's hints, saved games and analysis in headless Chromium against a real server,
and every view at a phone's size and a desktop's: nothing scrolls sideways, the score cards
and the board's coordinates are in view, and axe-core finds no serious or critical
accessibility problem. Each view is saved as a screenshot at both sizes, with axe's
findings beside it (tests/browser_helpers.py says where)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time

import httpx
import pytest
from browser_helpers import (
    DESKTOP,
    FAILING_IMPACTS,
    PHONE,
    axe_violations,
    open_page,
    screenshot_saver,
    show_at,
    start_chromium,
    wait,
)
from paths import PROJECT_ROOT
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select
from web_helpers import alive, children, running_server

from agent.arena.records.reading import read_records
from agent.arena.review.analysis import analyse_game
from agent.board import Board, Move

pytestmark = pytest.mark.slow

GAME = ["--games", "1", "--time", "10", "--in-process"]
# The cells outlined on the play board at the moment the game view turns ready, each time.
LIT_WHEN_READY = """
window.litWhenReady = [];
const view = document.getElementById('game');
new MutationObserver(() => {
  if (view.dataset.state !== 'ready') return;
  const lit = [...document.querySelectorAll('#play-board .fruit.lit')];
  const cells = lit.map((g) => [Number(g.dataset.row), Number(g.dataset.col)]);
  window.litWhenReady.push(cells.sort((a, b) => a[0] - b[0] || a[1] - b[1]));
}).observe(view, {attributes: true, attributeFilter: ['data-state']});
"""
SIZES = {"phone": PHONE, "desktop": DESKTOP}


@pytest.fixture(scope="module")
def records_dir(tmp_path_factory):
    """match.jsonl: two short 6x6 games; long.jsonl: a 12x12 game, seconds to analyse."""
    folder = tmp_path_factory.mktemp("records")
    for name, args in (
        ("match.jsonl", ["--games", "2", "--size", "6", "--types", "3", "--seed", "1"]),
        ("long.jsonl", ["--size", "12", "--types", "4", "--seed", "2"]),
    ):
        subprocess.run(
            [sys.executable, "-m", "agent", "match", "greedy", "random", *GAME, *args, "--out", str(folder / name)],
            cwd=PROJECT_ROOT,
            check=True,
            capture_output=True,
            timeout=120,
        )
    return folder


@pytest.fixture(scope="module")
def server(records_dir, tmp_path_factory):
    log = tmp_path_factory.mktemp("server") / "log"
    with running_server("--records", records_dir, log_path=log) as (base, process):
        yield base, process.pid


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    driver = start_chromium(tmp_path_factory.mktemp("chromium-profile"))
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory):
    return tmp_path_factory.mktemp("screenshots")


@pytest.fixture(scope="module")
def screenshots(artifacts):
    return screenshot_saver(artifacts)


def element(driver, element_id: str):
    return driver.find_element(By.ID, element_id)


def cells_marked(driver, board: str, mark: str) -> list:
    found = driver.find_elements(By.CSS_SELECTOR, f"{board} .fruit.{mark}")
    return sorted((int(g.get_attribute("data-row")), int(g.get_attribute("data-col"))) for g in found)


def group_cells(rows, name: str) -> list:
    return sorted(Board(rows).group_at(Move.from_name(name)).cells)


def game_state(driver, server: str) -> dict:
    game_id = element(driver, "game").get_attribute("data-game-id")
    return httpx.get(f"{server}/api/games/{game_id}", timeout=10).json()


def settled(driver, moves_before: int) -> bool:
    view = element(driver, "game")
    return int(view.get_attribute("data-moves") or 0) > moves_before and view.get_attribute("data-state") in (
        "ready",
        "over",
    )


def start_game(driver, **settings) -> None:
    form = element(driver, "new-game")
    for name, value in settings.items():
        field = form.find_element(By.NAME, name)
        if field.tag_name == "select":
            Select(field).select_by_value(value)
        else:
            field.clear()
            field.send_keys(str(value))
    element(driver, "start").click()
    wait(driver, lambda: element(driver, "game").get_attribute("data-state") in ("ready", "over"))


def analysed(driver) -> None:
    element(driver, "analyse").click()
    wait(driver, lambda: element(driver, "analysis").get_attribute("data-state") == "done")


def test_a_game_with_a_hint_is_saved_opened_again_analysed_and_its_blunder_shown(
    browser, server, tmp_path, screenshots
):
    base, _ = server
    browser.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(tmp_path)})
    show_at(browser, DESKTOP)
    open_page(browser, base)
    start_game(browser, size=6, types=3, opponent="greedy", first="you", clock=300, agent_clock=5, seed=21)

    element(browser, "hint").click()
    wait(browser, lambda: element(browser, "hint-text").text.startswith("Hint: "))
    hinted = element(browser, "hint-text").text.split()[1].rstrip(",")
    game = game_state(browser, base)
    assert cells_marked(browser, "#play-board", "hinted") == group_cells(game["rows"], hinted)
    assert game["hints"] == 1

    browser.execute_script(LIT_WHEN_READY)
    # the person takes a smallest group every turn: the analysis has blunders to show
    for turn in range(60):
        game = game_state(browser, base)
        if game["over"]:
            break
        # a smallest group, the lowest of them: the fruit above falls in under the pointer
        smallest = min(game["groups"], key=lambda group: (group["points"], -max(group["cells"])[0]))
        cell = max(smallest["cells"])
        target = browser.find_element(
            By.CSS_SELECTOR, f'#play-board .fruit[data-row="{cell[0]}"][data-col="{cell[1]}"]'
        )
        ActionChains(browser).move_to_element(target).click().perform()
        moves_before = len(game["moves"])
        wait(browser, lambda: settled(browser, moves_before))  # noqa: B023 - used at once, in this turn
        after = game_state(browser, base)
        if turn == 0:
            # the pointer has not moved: the group now under it is outlined as soon as the board
            # takes moves again, not only once the mouse moves (or the browser fakes a move)
            assert after["rows"][cell[0]][cell[1]] != "*"
            lit = browser.execute_script("return window.litWhenReady")
            assert lit == [[list(c) for c in group_cells(after["rows"], Move(*cell).name)]]
    else:
        pytest.fail("the game did not end in 60 turns")
    assert not element(browser, "how-to-move").is_displayed() and not element(browser, "hint").is_displayed()
    assert element(browser, "result-text").text.endswith("You took 1 hint.")

    element(browser, "save-game").click()
    saved = tmp_path / "fruit-rage-6x6-seed-21.jsonl"
    wait(browser, saved.exists)
    (record,) = read_records(str(saved))
    assert record["hints"] == {"A": 1} and record["agents"] == {"A": "you", "B": "greedy"}

    element(browser, "tab-replay").click()
    element(browser, "record-upload").send_keys(str(saved))
    wait(browser, lambda: element(browser, "replay-file").text == f"{saved.name}: 1 game")
    # the summary is written once the game itself has been fetched, after the file's name
    wait(browser, lambda: "Result:" in element(browser, "replay-summary").text)
    assert "A took 1 hint" in element(browser, "replay-summary").text
    analysed(browser)

    expected = analyse_game(record)  # the page shows the library's figures
    blunders = browser.find_elements(By.CSS_SELECTOR, '#analysis-moves button[data-label="blunder"]')
    assert [int(b.get_attribute("data-number")) for b in blunders] == [
        move.number for move in expected.moves if move.label == "blunder"
    ]
    marked = [move for move in expected.moves if move.label in ("inaccuracy", "mistake", "blunder")]
    assert len(browser.find_elements(By.CSS_SELECTOR, "#margin-chart .mark")) == len(marked)
    blunder = next(move for move in expected.moves if move.label == "blunder" and move.best_move != move.move)
    browser.find_element(By.CSS_SELECTOR, f'#analysis-moves button[data-number="{blunder.number}"]').click()
    wait(browser, lambda: element(browser, "replay").get_attribute("data-step") == str(blunder.number - 1))
    board = Board(record["board"])
    for move in record["moves"][: blunder.number - 1]:
        board, _ = board.play(Move.from_name(move["move"]))
    assert cells_marked(browser, "#replay-board", "best") == group_cells(board.rows, blunder.best_move)
    assert cells_marked(browser, "#replay-board", "next") == group_cells(board.rows, blunder.move)
    assert f"best {blunder.best_move}" in browser.find_element(By.CSS_SELECTOR, "[aria-current='true']").text
    screenshots(browser, "analysis-blunder-desktop")


@pytest.mark.parametrize("size_name", SIZES)
def test_every_view_fits_the_screen_and_passes_axe(browser, server, screenshots, artifacts, size_name):
    base, _ = server
    width, height = SIZES[size_name]
    found = {}

    def check_view(view: str, scroll_to_top: bool = True) -> None:
        assert browser.execute_script("return document.documentElement.scrollWidth") <= width, view
        if scroll_to_top:
            browser.execute_script("window.scrollTo(0, 0)")
        screenshots(browser, f"{view}-{size_name}")
        found[view] = axe_violations(browser)  # it scrolls the page as it checks: after the picture

    show_at(browser, SIZES[size_name])
    try:
        open_page(browser, base)
        check_view("play-intro")
        assert len(browser.find_elements(By.CSS_SELECTOR, "#example-board .coordinate")) == 6

        element(browser, "quick-play").click()
        wait(browser, lambda: element(browser, "game").get_attribute("data-state") == "ready")
        for card in ("side-you", "side-agent", "turn"):
            box = browser.execute_script("return arguments[0].getBoundingClientRect().toJSON()", element(browser, card))
            assert box["left"] >= 0 and box["right"] <= width and box["top"] >= 0 and box["bottom"] <= height, card
        n = game_state(browser, base)["size"]
        letters = browser.find_elements(By.CSS_SELECTOR, "#play-board .coordinate.column")
        numbers = browser.find_elements(By.CSS_SELECTOR, "#play-board .coordinate.row")
        assert [t.text for t in letters] == [chr(ord("A") + k) for k in range(n)]
        assert [t.text for t in numbers] == [str(k + 1) for k in range(n)]
        check_view("play-game")

        element(browser, "tab-replay").click()
        Select(element(browser, "record-name")).select_by_value("match.jsonl")
        browser.find_element(By.CSS_SELECTOR, "#open-record button").click()
        wait(browser, lambda: element(browser, "replay").get_attribute("data-step") == "0")
        chart_top = "return document.getElementById('margin-chart').getBoundingClientRect().top + window.scrollY"
        at_start = browser.execute_script(chart_top)
        element(browser, "step-next").click()
        wait(browser, lambda: element(browser, "replay-step").text.startswith("Move 1 of"))
        assert browser.execute_script(chart_top) == at_start  # the move's text takes no more room than the start's
        analysed(browser)
        browser.find_element(By.CSS_SELECTOR, '#analysis-moves button[data-number="2"]').click()
        wait(browser, lambda: element(browser, "replay").get_attribute("data-step") == "1")
        board_top = "return document.getElementById('replay-board').getBoundingClientRect().top"
        wait(browser, lambda: -1 < browser.execute_script(board_top) < height / 2)  # the position picked is in view
        check_view("replay-analysis", scroll_to_top=False)

        element(browser, "tab-phases").click()
        check_view("phases")
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    (artifacts / f"axe-{size_name}.json").write_text(json.dumps(found, indent=1))
    failing = {view: [v for v in violations if v[1] in FAILING_IMPACTS] for view, violations in found.items()}
    assert failing == {view: [] for view in found}


def test_a_long_analysis_cancelled_from_the_page_stops_its_worker_within_a_second(browser, server):
    base, server_pid = server
    open_page(browser, base)
    element(browser, "tab-replay").click()
    Select(element(browser, "record-name")).select_by_value("long.jsonl")
    browser.find_element(By.CSS_SELECTOR, "#open-record button").click()
    wait(browser, lambda: element(browser, "replay").get_attribute("data-step") == "0")
    before = set(children(server_pid))
    # every text the status line shows, kept as it changes: the first polls come before
    # the worker has counted the positions
    browser.execute_script(
        "window.statusTexts = [];"
        "new MutationObserver(() => window.statusTexts.push("
        "document.getElementById('analysis-status').textContent))"
        ".observe(document.getElementById('analysis-status'),"
        " {childList: true, characterData: true, subtree: true});"
    )
    element(browser, "analyse").click()
    wait(browser, lambda: float(element(browser, "analysis-progress").get_attribute("value") or 0) > 0)
    shown = browser.execute_script("return window.statusTexts;")
    # the moves are counted as judged, of the game's moves
    moves = int(element(browser, "replay").get_attribute("data-moves"))
    counts = [tuple(map(int, found)) for text in shown for found in re.findall(r"(\d+) of (\d+)", text)]
    assert any(text.startswith("Judging the moves from the end of the game back: ") for text in shown), shown
    assert counts and all(total == moves and judged <= moves for judged, total in counts), (moves, shown)
    (worker,) = set(children(server_pid)) - before
    element(browser, "analysis-cancel").click()
    cancelled_at = time.monotonic()
    while alive(worker) and time.monotonic() - cancelled_at < 1.0:
        time.sleep(0.02)
    assert not alive(worker)
    wait(browser, lambda: element(browser, "analysis-status").text == "Analysis cancelled.")
    assert element(browser, "analyse").is_displayed()
