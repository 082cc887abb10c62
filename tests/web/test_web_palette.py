"""The page's fruit colours: Paul Tol's colour-blind-safe "muted" scheme, one colour per
fruit digit, each with a digit ink that meets WCAG AA contrast (4.5:1) on it."""

from __future__ import annotations

from web_helpers import STYLE, contrast, variables

# Tol's muted scheme (personal.sron.nl/~pault), in his order, then his pale grey.
TOL_MUTED = [
    "#CC6677",
    "#332288",
    "#DDCC77",
    "#117733",
    "#88CCEE",
    "#882255",
    "#44AA99",
    "#999933",
    "#AA4499",
    "#DDDDDD",
]


def test_contrast_of_known_pairs():
    assert contrast("#000000", "#FFFFFF") == 21.0
    assert round(contrast("#777777", "#FFFFFF"), 2) == 4.48  # the classic just-failing grey


def test_every_fruit_digit_has_its_colour_from_the_tol_muted_scheme():
    assert [colour.upper() for colour in variables("fruit")] == TOL_MUTED


def test_every_digit_ink_reads_on_its_fruit_colour():
    for digit, (fill, ink) in enumerate(zip(variables("fruit"), variables("ink"))):
        assert ink is not None, f"fruit {digit} has no ink"
        assert contrast(fill, ink) >= 4.5, (digit, fill, ink, contrast(fill, ink))


def test_every_fruit_class_uses_its_own_colour_and_ink():
    for digit in range(10):
        assert f".fruit-{digit} rect {{ fill: var(--fruit-{digit}); }}" in STYLE
        assert f".fruit-{digit} text {{ fill: var(--ink-{digit}); }}" in STYLE
