"""What the README and the docs state, held to what the project is and what its commands
print: the strength figures, the commands, the quick start's answer, the game, the
layout of the code and the contract."""

from __future__ import annotations

import glob
import os
import re
import shutil
import subprocess
import sys
from collections import Counter

import pytest
from paths import PROJECT_ROOT, SAMPLES

from agent import Board, Move, rules
from agent.commands.cli import build_parser


def project_files(*patterns: str) -> list:
    """The project's files matching any of the glob patterns, as paths from its root."""
    return sorted(
        os.path.relpath(path, PROJECT_ROOT)
        for pattern in patterns
        for path in glob.glob(os.path.join(PROJECT_ROOT, pattern))
    )


def read(path: str) -> str:
    with open(os.path.join(PROJECT_ROOT, path), encoding="utf-8") as handle:
        return handle.read()


def section(text: str, heading: str) -> str:
    """The text under a `## heading`, up to the next one."""
    start = text.index(f"\n## {heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end >= 0 else len(text)]


def table_rows(text: str) -> list:
    """The cells of a markdown table's body rows."""
    return [
        [cell.strip() for cell in line.strip("|").split("|")]
        for line in text.splitlines()
        if line.startswith("|") and not line.startswith("|---")
    ][1:]


def words(text: str) -> str:
    return " ".join(text.split())


def test_the_readme_strength_figures_are_those_docs_strength_keeps_with_their_commands():
    """Every figure of the README's strength table is in the table docs/strength.md keeps
    for the agent it names (the one whose paragraph says from which commit it is), for the
    same board and seed, and the README shows the very commands that measured them."""
    readme, record = section(read("README.md"), "Strength"), read("docs/strength.md")
    current = record[record.index("(the agent from ") :]
    current_rows = {row[0]: row for row in table_rows(current[: current.index("```")])}
    commands = {words(line) for line in current[current.index("```") :].split("```")[1].splitlines()}
    readme_commands = [words(line) for line in readme.split("```")[1].splitlines() if line.strip()]
    rows = table_rows(readme)
    assert rows and set(readme_commands) <= commands
    for board, *cells in rows:
        for cell in cells:
            seed = re.search(r"\(seed (\d+)\)", cell).group(1)
            recorded = next(c for c in current_rows[board][1:] if f"(seed {seed}" in c)
            for figure in re.findall(r"[+-]?\d+(?:\.\d+)?(?:-\d+)?", cell):
                assert re.search(rf"(?<![\d.+-]){re.escape(figure)}(?![\d.])", recorded), (figure, recorded)
            assert any(f"--seed {seed}" in command for command in readme_commands)
    assert not re.search(r"\+61 a game|\+41 a game|\+59 a game|\+49 a game", readme)


def test_every_subcommand_is_in_the_readme_s_command_table_and_tune_eval_says_what_comes_next():
    table = section(read("README.md"), "Commands")
    parser = build_parser()
    (action,) = [action for action in parser._actions if hasattr(action, "choices") and action.dest == "command"]
    for name in action.choices:
        assert f"`fruit-rage {name}" in table or (name == "move" and "`fruit-rage [move]" in table), name
    (row,) = [cells for cells in table_rows(table) if cells[0].startswith("`fruit-rage tune-eval")]
    assert "weights.json" in row[1] and "fruit-rage gate py:agent.tuning.two_ply:fitted_player" in row[1]


def test_the_quick_start_s_answer_and_the_sample_s_name_one_move_as_the_readme_says(tmp_path):
    quick_start = words(section(read("README.md"), "Quick start"))
    assert "It prints the move, `C10`," in quick_start and "says `G8` with the same board after it" in quick_start
    sample = os.path.join(SAMPLES, "05-worked-10x10")
    shutil.copy(os.path.join(sample, "input.txt"), tmp_path / "input.txt")
    done = subprocess.run([sys.executable, "-m", "agent"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    ours, theirs = (tmp_path / "output.txt").read_text(), read(os.path.join(sample, "output.txt"))
    assert ours.split("\n")[0] == "C10" and theirs.split("\n")[0] == "G8"
    assert ours.split("\n")[1:] == theirs.split("\n")[1:]
    board = Board.from_text(read(os.path.join(sample, "input.txt")))
    assert board.normalize(Move.from_name("G8")) == Move.from_name("C10")


def test_the_game_s_example_move_is_what_the_rules_do():
    game = section(read("README.md"), "The game")
    figure = game.split("```")[1].strip("\n").splitlines()
    move = re.search(r"A move at ([A-Z]\d+) takes the four (\d)s \((\d+) points\)", words(game))
    before = tuple(line.split()[1] for line in figure[2:])
    after = tuple(line.split()[3] for line in figure[2:])
    assert figure[0].split() == ["before", "after", move.group(1)]
    cell = rules.parse_move_name(move.group(1))
    assert rules.play(before, cell) == (after, int(move.group(3)))
    assert len(rules.group_at(before, cell)) == 4 and before[cell[0]][cell[1]] == move.group(2)
    assert "measured in pairs" in words(game) and "`match --paired`" in game


def test_the_docs_name_only_files_that_exist():
    named = re.compile(r"(?<![\w/.-])((?:agent|ext|tests|docs|nim_games|io_samples|\.ci)/[\w./-]*)")
    for doc in ["README.md", ".ci/run", *project_files("docs/*.md")]:  # not CHANGELOG.md: history
        for path in named.findall(read(doc)):
            assert os.path.exists(os.path.join(PROJECT_ROOT, path.rstrip(".,;:"))), (doc, path)


def github_anchors(path: str) -> set:
    """The anchors GitHub gives the headings of the markdown file at `path`: the text as
    shown, lowercased, every character but letters, digits, `_`, `-` and spaces dropped,
    spaces made hyphens; a repeated one takes -1, -2 (github-slugger, which GitHub's pages
    use; Sphinx's myst-parser makes the same, and docutils' forms beside them)."""
    anchors: set = set()
    seen: Counter = Counter()
    fenced = False
    for line in read(path).splitlines():
        fenced ^= line.startswith("```")
        heading = re.match(r"#{1,6} (.*)", line)
        if heading and not fenced:
            shown = re.sub(r"\[([^]]*)\]\([^)]*\)", r"\1", heading.group(1)).replace("`", "")
            slug = re.sub(r"[^\w\- ]", "", shown.strip().lower()).replace(" ", "-")
            anchors.add(f"{slug}-{seen[slug]}" if seen[slug] else slug)
            seen[slug] += 1
    return anchors


def test_every_link_to_a_heading_names_the_anchor_github_gives_it():
    """A link to `#anchor` of a markdown page works on GitHub as well as in the Sphinx
    build: GitHub makes only its own form (`opponent---opponent-greedy` for the heading
    `opponent (--opponent greedy)`), where docutils' (`opponent-opponent-greedy`) works
    in Sphinx alone."""
    for doc in ["README.md", "CHANGELOG.md", *project_files("docs/*.md", "docs/*/*.md")]:
        for target, anchor in re.findall(r"\]\(([^()#\s]*)#([^()\s]+)\)", read(doc)):
            page = os.path.normpath(os.path.join(os.path.dirname(doc), target)) if target else doc
            if page.endswith(".md"):
                assert anchor in github_anchors(page), (doc, target, anchor)


def test_the_user_guides_are_short_and_leave_the_research_narrative_to_the_logs():
    """README.md and the strength and speed guides say what is true now; how it came about
    (stops, candidates, what was tried) lives in docs/research/, where they link."""
    for path, most in [("README.md", 300), ("docs/strength.md", 250), ("docs/core-speed.md", 250)]:
        text = read(path)
        prose = re.sub(r"\]\([^)]*\)", "]", text)  # link targets may name a log's entries
        assert len(text.splitlines()) < most, path
        assert not re.search(r"\b(?:candidates?|tried|stop \d+|(?:first|second|third) stop)\b", prose), path
    for path in ("docs/strength.md", "docs/core-speed.md"):
        assert "](research/2026-" in read(path), path


def test_the_architecture_s_layout_names_every_module():
    text = read("docs/architecture.md")
    layout = text.split("- **Board.**")[0]  # the picture, the reason for each place, the files beside
    modules = [
        os.path.basename(path)
        for path in project_files("agent/*.py", "agent/*/*.py", "agent/arena/*/*.py")
        if not path.endswith(("__init__.py", "__main__.py")) and not path.startswith("agent/web/")
    ]
    packages = {os.path.dirname(path) + "/" for path in project_files("agent/*/__init__.py", "agent/*/*/__init__.py")}
    units = [os.path.basename(path) for path in project_files("ext/*.pyx")]
    shared = [
        os.path.basename(path)
        for path in project_files("ext/*.pxd")
        if not os.path.exists(os.path.join(PROJECT_ROOT, path[:-4] + ".pyx"))
    ]
    for name in modules + units + shared:
        assert re.search(rf"(?<![\w]){re.escape(name)}", layout), name
    for folder in sorted(packages) + ["nim_games/", "ext/"]:
        assert folder in layout, folder


def test_the_readme_keeps_to_the_contract_a_user_needs_and_links_the_whole():
    readme = section(read("README.md"), "The agent's contract")
    contract = read("docs/contract.md")
    assert "input.txt                     output.txt" in readme and "$ fruit-rage command" in readme
    assert "exit code 2" in readme and "130 interrupted" in readme
    assert "[docs/contract.md](docs/contract.md)" in readme
    for detail in ("/dev/zero", "ulimit", "hard link", "1_000", "byte order mark", "UTF-16"):
        assert detail not in readme and detail in contract, detail


def test_the_readme_s_run_match_example_passes_the_jobs_its_text_names():
    readme = read("README.md")
    text_end = readme.index("with `jobs=2`")
    example = readme[readme.index("```python", text_end) : readme.index("\n```\n", text_end)]
    assert re.search(r"run_match\(.*jobs=2\)", example), example


def test_the_build_the_readme_tells_of_leaves_nothing_for_git_to_track():
    if not os.path.exists(os.path.join(PROJECT_ROOT, ".git")):
        pytest.skip("not a git checkout")
    assert "python3 -m build" in read("README.md")
    built = ["dist/fruit_rage-0.1.0.tar.gz", "dist/fruit_rage-0.1.0-cp311-cp311-linux_x86_64.whl"]
    done = subprocess.run(["git", "check-ignore", *built], cwd=PROJECT_ROOT, capture_output=True, text=True)
    assert done.stdout.split() == built, done.stderr
