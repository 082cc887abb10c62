"""The page on a phone (390x844, touch) and on a desktop (1280x900) in headless Chromium:
a group is taken as the device allows (a finger's first tap shows it, a second takes it),
outlines stay in their cells, chart text is readable and no point sits on an axis nor any
axis label on the y title, the Phases table fits the screen, nothing moves as a replay
steps, a saved game calls the person's time thinking, a hint goes with its position, and
every label and the "exact" mark are defined where they are used.

One browser per size serves every test (tests/browser_helpers.py)."""

from __future__ import annotations

import subprocess
import sys

import httpx
import pytest
from browser_helpers import DESKTOP, PHONE, open_page, show_at, start_chromium, wait
from paths import PROJECT_ROOT
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select
from web_helpers import running_server

from agent.arena.review.analysis import EXACT_MARK, LABELS

pytestmark = pytest.mark.slow

MATCH = ["greedy", "random", "--games", "2", "--size", "6", "--types", "3", "--time", "10", "--seed", "1"]
SIZES = {"phone": PHONE, "desktop": DESKTOP}
MIN_CHART_TEXT_PX = 12
STEPS = 6  # Next clicked this often: enough texts of other widths to move a column that follows them

# Every outlined fruit's square with its outline: [mark, x - half the outline, the far
# edge + half of it], in cells; inside its cell when both are within [0, 1].
OUTLINES = """
return [...document.querySelectorAll(arguments[0] + ' .fruit')].flatMap((g) => {
  const marks = [...g.classList].filter((c) => ['lit', 'next', 'best', 'hinted'].includes(c));
  if (!marks.length) return [];
  const rect = g.querySelector('rect');
  const box = rect.getBBox();
  const half = parseFloat(getComputedStyle(rect).strokeWidth) / 2;
  return [[marks.join(' '), Math.min(box.x, box.y) - half, Math.max(box.x + box.width, box.y + box.height) + half]];
});
"""
# Each text of a chart: [its words, its font size on the screen in CSS px].
CHART_TEXT = """
const svg = document.getElementById(arguments[0]);
const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
return [...svg.querySelectorAll('text')].filter((t) => t.textContent)
  .map((t) => [t.textContent, parseFloat(getComputedStyle(t).fontSize) * scale]);
"""
# Each point of a chart that touches an axis line or an axis label: [its index, what].
POINTS_ON_AXES = """
const svg = document.getElementById(arguments[0]);
const box = (e) => e.getBoundingClientRect();
const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
const [yAxis, xAxis] = [...svg.querySelectorAll('.axis > line')].slice(0, 2).map(box);
const labels = [...svg.querySelectorAll('.axis text, .chart-label')];
const found = [];
for (const point of svg.querySelectorAll('g[data-series] circle.point')) {
  const p = box(point);
  if (p.left <= yAxis.right || p.bottom >= xAxis.top) found.push([point.dataset.index, 'axis']);
  for (const label of labels) if (meet(p, box(label))) found.push([point.dataset.index, label.textContent]);
}
return found;
"""
# A chart of margins from 0 to arguments[1] (the middle y label then as wide as the
# widest), drawn in a new figure arguments[0] px wide: [the y title's box is inside the
# chart, the axis labels whose box meets the y title's].
AXIS_TITLE_MEETS = """
const [width, high, done] = arguments;
import('/static/js/chart.js').then(({ drawLineChart }) => {
  const figure = document.createElement('figure');
  figure.className = 'chart';
  figure.style.width = `${width}px`;
  const svg = figure.appendChild(document.createElementNS('http://www.w3.org/2000/svg', 'svg'));
  document.querySelector('main').prepend(figure);
  const series = [
    {name: 'moved first', className: 'series-a', points: [[10, 0], [50, high], [100, high / 2]]},
    {name: 'moved second', className: 'series-b', points: [[10, high / 4], [50, high / 2], [100, high]]},
  ];
  drawLineChart(svg, series, {
    xLabel: 'fruit gone', xUnit: '%', yLabel: "A's mean margin", xRange: [0, 100], legend: true,
  });
  const box = (e) => e.getBoundingClientRect();
  const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const title = box([...svg.querySelectorAll('.chart-label')].find((t) => t.textContent === "A's mean margin"));
  const chart = box(svg);
  const inside = title.left >= chart.left && title.top >= chart.top && title.bottom <= chart.bottom;
  const met = [...svg.querySelectorAll('.axis text')].filter((t) => meet(title, box(t))).map((t) => t.textContent);
  figure.remove();
  done([inside, met]);
});
"""
# The Phases table: [the width of its box's content, its box's width, the page's width,
# the viewport's width, the most lines a row label takes].
PHASES_TABLE_FIT = """
const table = document.getElementById('phases-table');
const lines = (cell) => {
  const range = document.createRange();
  range.selectNodeContents(cell);
  return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
};
return [
  table.parentElement.scrollWidth, table.parentElement.clientWidth,
  document.documentElement.scrollWidth, window.innerWidth,
  Math.max(...[...table.querySelectorAll('tbody th')].map(lines)),
];
"""
# Where the replay's parts are on the page.
PLACES = """
return ['replay-board', 'analysis', 'margin-chart', 'step-next'].map((id) => {
  const r = document.getElementById(id).getBoundingClientRect();
  return [id, Math.round(r.left + scrollX), Math.round(r.top + scrollY), Math.round(r.width)];
});
"""
# The text a select shows is cut unless it fits beside its arrow.
SELECT_TEXT_FITS = """
const select = document.getElementById(arguments[0]);
const style = getComputedStyle(select);
const context = document.createElement('canvas').getContext('2d');
context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
const text = context.measureText(select.selectedOptions[0].textContent).width;
const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
return [text, room];
"""


@pytest.fixture(scope="module")
def records_dir(tmp_path_factory):
    """match.jsonl: two short 6x6 games between greedy and random."""
    folder = tmp_path_factory.mktemp("records")
    subprocess.run(
        [sys.executable, "-m", "agent", "match", *MATCH, "--in-process", "--out", str(folder / "match.jsonl")],
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
def saved_game(server, tmp_path_factory):
    """A 5x5 game against greedy played through the page's API, saved as the page saves it."""
    game = httpx.post(f"{server}/api/games", json={"size": 5, "types": 3, "opponent": "greedy", "seed": 4}).json()
    while not game["over"]:
        if game["turn"] == "you":
            game = httpx.post(f"{server}/api/games/{game['id']}/move", json={"move": game["groups"][0]["move"]}).json()
        else:
            game = httpx.post(f"{server}/api/games/{game['id']}/agent-move", timeout=60).json()
    path = tmp_path_factory.mktemp("saved") / "saved.jsonl"
    path.write_bytes(httpx.get(f"{server}/api/games/{game['id']}/record").content)
    return path


@pytest.fixture(scope="module", params=list(SIZES))
def page(request, tmp_path_factory):
    """(browser, (width, height)): one browser per size, a phone's with touch."""
    size = SIZES[request.param]
    driver = start_chromium(tmp_path_factory.mktemp("chromium-profile"))
    show_at(driver, size)
    yield driver, size
    driver.quit()


def element(driver, element_id: str):
    return driver.find_element(By.ID, element_id)


def fruit(driver, cell):
    return driver.find_element(By.CSS_SELECTOR, f'#play-board .fruit[data-row="{cell[0]}"][data-col="{cell[1]}"]')


def lit_cells(driver) -> list:
    found = driver.find_elements(By.CSS_SELECTOR, "#play-board .fruit.lit")
    return sorted([int(g.get_attribute("data-row")), int(g.get_attribute("data-col"))] for g in found)


def outlines_in_cells(driver, board: str) -> bool:
    return all(low > -1e-6 and high < 1 + 1e-6 for _, low, high in driver.execute_script(OUTLINES, board))


def tap(driver, target) -> None:
    """A finger's tap at the middle of `target`, as a touch screen sends it."""
    x, y = driver.execute_script(
        "const r = arguments[0].getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]", target
    )
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def game_state(driver, server: str) -> dict:
    return httpx.get(f"{server}/api/games/{element(driver, 'game').get_attribute('data-game-id')}", timeout=10).json()


def start_game(driver, server: str, **settings) -> dict:
    open_page(driver, server)
    form = element(driver, "new-game")
    for name, value in {"opponent": "greedy", **settings}.items():  # greedy: no worker stays busy
        field = form.find_element(By.NAME, name)
        if field.tag_name == "select":
            Select(field).select_by_value(value)
        else:
            field.clear()
            field.send_keys(str(value))
    element(driver, "start").click()
    wait(driver, lambda: element(driver, "game").get_attribute("data-state") in ("ready", "over"))
    return game_state(driver, server)


def open_record(driver, server: str, upload=None) -> None:
    open_page(driver, server)
    element(driver, "tab-replay").click()
    if upload:
        element(driver, "record-upload").send_keys(str(upload))
    else:
        Select(element(driver, "record-name")).select_by_value("match.jsonl")
        driver.find_element(By.CSS_SELECTOR, "#open-record button").click()
    wait(driver, lambda: element(driver, "replay").get_attribute("data-step") == "0")


def step_to(driver, step: int) -> None:
    element(driver, "step-next").click()
    wait(driver, lambda: element(driver, "replay").get_attribute("data-step") == str(step))


def test_a_group_is_taken_as_the_device_allows_and_its_outline_stays_in_its_cells(page, server):
    driver, size = page
    game = start_game(driver, server, size=8, types=3, seed=5, clock=300)
    assert game["turn"] == "you"
    first, second = sorted(game["groups"], key=lambda group: -group["points"])[:2]
    how = element(driver, "how-to-move").text
    if size == PHONE:
        assert how.startswith("Tap a fruit to see its group")
        for chosen in (first, second):  # a tap shows the group and its points; another tap changes the choice
            tap(driver, fruit(driver, chosen["cells"][0]))
            wait(driver, lambda c=chosen: lit_cells(driver) == sorted(c["cells"]))
            info = element(driver, "hover-info").text
            assert info.startswith(f"{chosen['move']}: {len(chosen['cells'])} fruit, {chosen['points']} points")
            assert game_state(driver, server)["moves"] == []
        assert driver.execute_script(OUTLINES, "#play-board")
        assert outlines_in_cells(driver, "#play-board")
        tap(driver, fruit(driver, second["cells"][-1]))  # a second tap on the chosen group takes it
    else:
        assert how.startswith("Point at a fruit to see its group")
        ActionChains(driver).move_to_element(fruit(driver, second["cells"][-1])).perform()
        assert lit_cells(driver) == sorted(second["cells"])
        assert outlines_in_cells(driver, "#play-board")
        fruit(driver, second["cells"][-1]).click()  # a click takes it at once
    wait(driver, lambda: game_state(driver, server)["moves"])
    assert game_state(driver, server)["moves"][0]["move"] == second["move"]


def test_a_hint_goes_with_its_position_even_when_the_game_ends_on_time(page, server):
    driver, _ = page
    start_game(driver, server, size=6, types=3, seed=3, clock=6)
    element(driver, "hint").click()
    wait(driver, lambda: element(driver, "hint-text").text.startswith("Hint: "))
    wait(driver, lambda: element(driver, "result-text").text)  # nobody moves: the clock runs out
    assert "you ran out of time" in element(driver, "result-text").text
    assert element(driver, "hint-text").text == ""
    assert driver.find_elements(By.CSS_SELECTOR, "#play-board .fruit.hinted") == []


def test_nothing_moves_as_a_replay_steps_and_its_controls_and_choice_fit(page, server, records_dir):
    driver, size = page
    open_record(driver, server)
    places = driver.execute_script(PLACES)
    for step in range(1, STEPS + 1):
        step_to(driver, step)
        assert driver.execute_script(PLACES) == places, step
    element(driver, "step-last").click()
    replay = element(driver, "replay")
    wait(driver, lambda: replay.get_attribute("data-step") == replay.get_attribute("data-moves"))
    assert driver.execute_script(PLACES) == places, "the last move"
    buttons = driver.find_elements(By.CSS_SELECTOR, ".controls button")
    tops = {round(button.rect["y"]) for button in buttons}
    assert len(tops) == 1 and max(button.rect["x"] + button.rect["width"] for button in buttons) <= size[0]
    text, room = driver.execute_script(SELECT_TEXT_FITS, "replay-game")
    assert text <= room


def test_chart_text_is_readable_no_point_sits_on_an_axis_and_every_label_is_defined(page, server):
    driver, _ = page
    open_record(driver, server)
    element(driver, "analyse").click()
    wait(driver, lambda: element(driver, "analysis").get_attribute("data-state") == "done")
    step_to(driver, 1)
    for tab, chart in (("replay", "margin-chart"), ("phases", "phases-chart")):
        element(driver, f"tab-{tab}").click()
        texts = driver.execute_script(CHART_TEXT, chart)
        assert texts and [t for t in texts if t[1] < MIN_CHART_TEXT_PX] == [], chart
        assert driver.execute_script(POINTS_ON_AXES, chart) == [], chart
    element(driver, "tab-replay").click()

    # one mark for "exact", the CLI's, defined in the legend; every label defined
    thresholds = element(driver, "analysis-thresholds").text
    assert all(f"{label} when" in thresholds or f"{label} from" in thresholds for label in LABELS), thresholds
    assert element(driver, "analysis-legend").text.startswith(f"{EXACT_MARK} after a value: exact")
    assert f"(marked {EXACT_MARK})" in element(driver, "analysis-status").text
    moves = [button.text for button in driver.find_elements(By.CSS_SELECTOR, "#analysis-moves button")]
    assert any(EXACT_MARK in text for text in moves) and not any("=" in text for text in moves)


@pytest.mark.parametrize("width", [260, 370, 560, 768])
def test_a_charts_y_title_is_inside_it_and_meets_no_axis_label(page, server, width):
    driver, _ = page
    open_page(driver, server)
    for high in (200, -200, 2000, 0.5):
        inside, met = driver.execute_async_script(AXIS_TITLE_MEETS, width, high)
        assert inside and met == [], (high, met)


def test_the_phases_table_fits_the_screen_with_short_row_labels(page, server):
    driver, size = page
    open_record(driver, server)
    element(driver, "tab-phases").click()
    content, room, page_width, viewport, lines = driver.execute_script(PHASES_TABLE_FIT)
    assert content <= room and page_width <= viewport == size[0]
    assert lines <= 2


def test_a_saved_game_calls_the_persons_time_thinking_in_plain_words(page, server, saved_game):
    driver, _ = page
    open_record(driver, server, upload=saved_game)
    for step, side, measured in ((1, "A", "wall time"), (2, "B", "CPU")):  # the person moved first
        step_to(driver, step)
        text = element(driver, "replay-step").text
        assert text.startswith(f"Move {step} of ") and f": {side} (" in text and f" s {measured}." in text, text
    element(driver, "tab-phases").click()
    assert element(driver, "phases-source").text == "saved.jsonl: 1 game."
    assert element(driver, "phases-caption").text.startswith("A (you) minus B (greedy) in points")
    columns = [column.text for column in driver.find_elements(By.CSS_SELECTOR, "#phases-table thead th")]
    assert columns[-1] == "you thinking s a game" and all("game(s)" not in column for column in columns), columns
