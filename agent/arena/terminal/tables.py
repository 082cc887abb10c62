"""What the arena's commands share at the terminal: tables rendered by rich to a given
width, lines cropped or wrapped to fit it, and durations as a clock shows them. Never imported on
the move path (rich costs milliseconds to load)."""

from __future__ import annotations

import io
import os
import shutil
import textwrap

from rich import box
from rich.console import Console
from rich.table import Table

# A table of plain ASCII: a rule under the header only, so that logs, pipes and any
# locale show it as it is.
RULED_HEADER = box.Box("    \n    \n -- \n    \n    \n    \n    \n    \n", ascii=True)
DEFAULT_WIDTH = 80
ELLIPSIS = "..."


def terminal_width(stream=None) -> int:
    """The columns to fit: the terminal's when `stream` is one, else COLUMNS, else 80."""
    columns = os.environ.get("COLUMNS", "")
    fallback = int(columns) if columns.isdigit() and int(columns) > 0 else DEFAULT_WIDTH
    try:
        if stream is not None and stream.isatty():
            return shutil.get_terminal_size((fallback, 24)).columns
    except (AttributeError, ValueError, OSError):  # a closed or odd stream
        pass
    return fallback


def new_table(*headers, right_aligned=()) -> Table:
    """A rich table with these column headers; columns named in `right_aligned` hold
    numbers and line up on the right."""
    table = Table(box=RULED_HEADER, show_edge=False, pad_edge=False, padding=(0, 1), header_style="", show_header=True)
    for header in headers:
        table.add_column(header, justify="right" if header in right_aligned else "left", overflow="fold")
    return table


def render(renderable, width: int) -> str:
    """Text of a rich renderable laid out in `width` columns, without colour or trailing
    spaces."""
    buffer = io.StringIO()
    Console(
        file=buffer, width=width, color_system=None, highlight=False, markup=False, emoji=False, legacy_windows=False
    ).print(renderable)
    return "\n".join(line.rstrip() for line in buffer.getvalue().rstrip("\n").split("\n"))


def crop(text: str, width: int) -> str:
    """`text`, cut to `width` columns with an ellipsis when longer."""
    if len(text) <= width:
        return text
    return text[: max(0, width - len(ELLIPSIS))] + ELLIPSIS


def fit_lines(text: str, width: int) -> str:
    """Every line of `text` wider than `width` wrapped between words, its continuation
    lines indented two columns more than it (a name with a hyphen stays whole)."""
    lines = []
    for line in text.split("\n"):
        indent = line[: len(line) - len(line.lstrip())]
        lines += textwrap.wrap(
            line, width, subsequent_indent=indent + "  ", break_on_hyphens=False, drop_whitespace=True
        ) or [line]
    return "\n".join(lines)


def join_fitting(parts, width: int) -> list:
    """Lines of `parts` joined by commas, as many on a line as fit in `width` columns: a
    part is split only when it alone is wider (a seed stays by its number)."""
    units = [f"{part}," for part in parts[:-1]] + list(parts[-1:])
    lines: list[str] = []
    for unit in units:
        if lines and len(lines[-1]) + 1 + len(unit) <= width:
            lines[-1] += " " + unit
        elif len(unit) <= width:
            lines.append(unit)
        else:
            lines += textwrap.wrap(unit, width, break_on_hyphens=False)
    return lines


def clock_time(seconds: float) -> str:
    """`0:07`, `12:34`, `1:02:03`: a duration in whole seconds."""
    total = max(0, round(seconds))
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
