"""What the environments' render() gives: the board as text ("ansi"), that text printed
("human", for a person at a terminal), or an RGB image ("rgb_array"), drawn with numpy
alone."""

from __future__ import annotations

from typing import Mapping, Optional, Union

import numpy as np

from agent.board import Board

RENDER_MODES = ("human", "ansi", "rgb_array")
CELL_PIXELS = 16
# One colour per fruit digit 0..9 (the Tableau 10 palette), and the holes' dark grey.
FRUIT_COLOURS = np.array(
    [
        (31, 119, 180),
        (255, 127, 14),
        (44, 160, 44),
        (214, 39, 40),
        (148, 103, 189),
        (140, 86, 75),
        (227, 119, 194),
        (127, 127, 127),
        (188, 189, 34),
        (23, 190, 207),
    ],
    dtype=np.uint8,
)
HOLE_COLOUR = np.array((32, 32, 32), dtype=np.uint8)


def check_render_mode(render_mode: str | None) -> None:
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be one of {', '.join(RENDER_MODES)}, not {render_mode!r}")


def render(mode: str, board: Board, scores: Mapping[str, int], to_move: Optional[str]) -> Union[str, np.ndarray, None]:
    """What render() gives in `mode` (one of RENDER_MODES): see `ansi` and `rgb`; "human"
    prints the text and gives None."""
    if mode == "rgb_array":
        return rgb(board)
    text = ansi(board, scores, to_move)
    if mode == "ansi":
        return text
    print(text, end="", flush=True)
    return None


def ansi(board: Board, scores: Mapping[str, int], to_move: str | None) -> str:
    """The rows (top first, as in input.txt), each player's points, and who moves next
    (None once the game is over)."""
    points = ", ".join(f"{player} {score}" for player, score in scores.items())
    status = f"{to_move} to move" if to_move is not None else "game over"
    return "\n".join([*board.rows, f"points: {points}; {status}"]) + "\n"


def rgb(board: Board) -> np.ndarray:
    """A (size * CELL_PIXELS, size * CELL_PIXELS, 3) uint8 image of the board, one square
    of colour per cell, with a one-pixel grid line."""
    codes = np.frombuffer("".join(board.rows).encode("ascii"), dtype=np.uint8).reshape(board.size, board.size)
    image = np.where((codes == ord("*"))[..., None], HOLE_COLOUR, FRUIT_COLOURS[np.clip(codes - ord("0"), 0, 9)])
    image = np.repeat(np.repeat(image, CELL_PIXELS, axis=0), CELL_PIXELS, axis=1)
    image[::CELL_PIXELS, :] = 0
    image[:, ::CELL_PIXELS] = 0
    return np.ascontiguousarray(image, dtype=np.uint8)
