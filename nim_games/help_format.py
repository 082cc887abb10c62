"""The help formatter of the Nim games' commands: their help fits the terminal, 80 columns
when it is not one."""

from __future__ import annotations

import argparse
import shutil
import textwrap


class LineWrappingHelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Description and epilog kept line by line as written (a rules text, a list of exit
    codes), each line wider than the help wrapped between words, its continuation lines
    indented as it is. The help takes the terminal's whole width (argparse leaves two
    columns free), so that an 80-column line such as the exit codes stays whole."""

    def __init__(self, prog, **options):
        options.setdefault("width", shutil.get_terminal_size().columns)
        super().__init__(prog, **options)

    def _fill_text(self, text, width, indent):
        lines = []
        for line in text.splitlines():
            margin = indent + line[: len(line) - len(line.lstrip())]
            wrapped = textwrap.wrap(
                line.strip(), width, initial_indent=margin, subsequent_indent=margin, break_on_hyphens=False
            )
            lines += wrapped or [""]
        return "\n".join(lines)
