"""Time the picture of the largest table (all 106 tiles of the deck) and print median, p90 and max.

Run: ``python bench/render_bench.py [--runs N]``. The first (cold) render, which
draws every tile sprite and loads the font, is reported apart from the warm runs
that a running bot sees. The parts: layout, painting the pieces in the palette
(``draw_indexed``), PNG encoding; and for comparison the reference painter
(``draw``, full RGB), which then also needs mapping to the palette.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from render import draw, draw_indexed, encode, layout_solution, render_solution
from render.examples import full_deck_play


def _time(fn: Callable[[], object], runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        out.append((time.perf_counter() - start) * 1000)
    return out


def _line(name: str, ms: list[float]) -> str:
    ordered = sorted(ms)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return f"{name:<22} median {statistics.median(ms):6.1f} ms   p90 {p90:6.1f} ms   max {max(ms):6.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=100)
    args = parser.parse_args()
    play = full_deck_play()

    start = time.perf_counter()
    png = render_solution(play)
    cold = (time.perf_counter() - start) * 1000
    layout = layout_solution(play)
    image = draw_indexed(layout)
    reference = draw(layout)

    print(f"python {platform.python_version()}, {platform.processor() or platform.machine()}")
    print(f"largest table: {len(layout.tiles)} tiles, {layout.width}x{layout.height} px, {len(png) / 1024:.0f} KiB")
    print(f"cold first render      {cold:6.1f} ms")
    print(_line("render_solution", _time(lambda: render_solution(play), args.runs)))
    print(_line("  layout", _time(lambda: layout_solution(play), args.runs)))
    print(_line("  draw_indexed", _time(lambda: draw_indexed(layout), args.runs)))
    print(_line("  encode (PNG)", _time(lambda: encode(image), args.runs)))
    print(_line("reference draw (RGB)", _time(lambda: draw(layout), args.runs)))
    print(_line("  + map and encode", _time(lambda: encode(reference), args.runs)))


if __name__ == "__main__":
    main()
