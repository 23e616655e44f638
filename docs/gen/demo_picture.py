"""The picture of the README and the docs' home page: the demo report's win-rate chart, downscaled.

Run after ``make demo``: ``python docs/gen/demo_picture.py [DATASET]`` (default ``data/demo``)."""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).parents[2]
CHART = Path("analysis") / "charts" / "win_rate_by_position_random.png"
PICTURE = ROOT / "docs" / "assets" / "demo-win-rates.png"
WIDTH = 1000


def main(dataset: Path) -> None:
    with Image.open(dataset / CHART) as image:
        height = round(image.height * WIDTH / image.width)
        small = image.convert("RGB").resize((WIDTH, height), Image.LANCZOS)
        small.quantize(colors=256, method=Image.Quantize.FASTOCTREE).save(PICTURE, optimize=True)   # a chart: few colours, a small file


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "data" / "demo")
