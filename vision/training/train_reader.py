"""Trains the tile reader on the training scenes and exports ``vision/models/reader.onnx``.

Run: ``python -m vision.training.train_reader PHOTOS [--steps N] [--seed S]``. Prints
the validation figure (tiles read right, number and colour, from their
labelled boxes) on the held-out scenes.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

import numpy as np
import torch
from PIL import Image

from solver.tiles import Tile
from vision import read
from vision.training import augment, photos
from vision.training.reader_net import Reader

MODELS = Path(__file__).resolve().parents[1] / "models"
Box = tuple[float, float, float, float]


def cut(image: Image.Image, box: Box, angle: float, rng: random.Random | None) -> Image.Image:
    """A 48x48 patch of the tile in ``box`` turned by ``angle``; with ``rng``, nudged like a finder's box."""
    x0, y0, x1, y1 = read.square(box)
    side = x1 - x0
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    if rng is not None:
        cx += rng.uniform(-0.08, 0.08) * side
        cy += rng.uniform(-0.08, 0.08) * side
        side *= rng.uniform(0.88, 1.15)
    if angle:
        r = side * 0.75
        region = image.crop((round(cx - r), round(cy - r), round(cx + r), round(cy + r)))
        region = region.rotate(angle, resample=Image.Resampling.BILINEAR)
        cx = cy = region.width / 2
        image = region
    return read.cut(image, (cx - side / 2, cy - side / 2, cx + side / 2, cy + side / 2))


def background(photo: photos.Photo, image: Image.Image, rng: random.Random) -> Box | None:
    """A box of tile size that holds no tile's centre area: the reader learns to say "no tile"."""
    sizes = [max(t.box[2] - t.box[0], t.box[3] - t.box[1]) for t in photo.tiles] or [rng.uniform(30, 160)]
    for _ in range(20):
        s = rng.choice(sizes) * rng.uniform(0.8, 1.2)
        cx, cy = rng.uniform(0, image.width), rng.uniform(0, image.height)
        if all(
            not (b[0] - s * 0.3 < cx < b[2] + s * 0.3 and b[1] - s * 0.3 < cy < b[3] + s * 0.3)
            for b in (t.box for t in photo.tiles)
        ):
            return (cx - s * 0.4, cy - s * 0.5, cx + s * 0.4, cy + s * 0.5)
    return None


def batch_of(
    items: list[tuple[photos.Photo, Tile | None, Box]], images: dict[Path, Image.Image], rng: random.Random
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    xs, ns, cs = [], [], []
    for photo, t, box in items:
        angle = rng.uniform(-20, 20) + (180 if rng.random() < 0.3 else 0)
        # at 48 px a digit is about 17 px tall: blur and noise lighter than on whole photos
        patch = augment.light(cut(images[photo.path], box, angle, rng), rng, blur=0.7, noise=6.0)
        xs.append(read.as_input(patch))
        ns.append(read.NOTHING_INDEX if t is None else read.number_index(t))
        cs.append(-1 if t is None else read.colour_index(t))
    return np.stack(xs), np.array(ns), np.array(cs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    photos.add_argument(parser)
    parser.add_argument("--steps", type=int, default=8000)
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--out", type=Path, default=MODELS / "reader.onnx")
    parser.add_argument("--checkpoint", type=Path, help="also export the network here every 400 steps")
    args = parser.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    rng = random.Random(args.seed)
    training, validation = photos.split(photos.load(args.photos))
    images: dict[Path, Image.Image] = {}
    for p in training + validation:
        with Image.open(p.path) as im:
            images[p.path] = im.convert("RGB")
    tiles = [(p, t.tile, t.box) for p in training for t in p.tiles]
    net = Reader()
    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
    ce = torch.nn.CrossEntropyLoss(ignore_index=-1, label_smoothing=0.05)
    start = time.monotonic()
    for step in range(1, args.steps + 1):
        frac = step / args.steps
        for g in opt.param_groups:
            g["lr"] = 2e-3 * 0.5 * (1 + np.cos(np.pi * min(1.0, frac)))
        items: list[tuple[photos.Photo, Tile | None, Box]] = [rng.choice(tiles) for _ in range(48)]
        for _ in range(8):
            p = rng.choice(training)
            box = background(p, images[p.path], rng)
            if box is not None:
                items.append((p, None, box))
        x, n, c = batch_of(items, images, rng)
        net.train()
        pn, pc = net(torch.from_numpy(x))
        loss = ce(pn, torch.from_numpy(n)) + ce(pc, torch.from_numpy(c))
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 50 == 0:
            print(f"step {step} loss {loss.item():.3f} {time.monotonic() - start:.0f}s", flush=True)
        if args.checkpoint is not None and step % 400 == 0:
            net.eval()
            export(net, args.checkpoint)
    net.eval()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    export(net, args.out)
    report(net, validation, images)


def export(net: Reader, path: Path) -> None:
    torch.onnx.export(
        net,
        (torch.zeros(1, 3, read.CROP, read.CROP),),
        str(path),
        dynamo=False,
        input_names=["tiles"],
        output_names=["number", "colour"],
        opset_version=17,
        dynamic_axes={"tiles": {0: "n"}, "number": {0: "n"}, "colour": {0: "n"}},
    )


def report(net: Reader, validation: list[photos.Photo], images: dict[Path, Image.Image]) -> None:
    """Tiles read right from their labelled boxes in the held-out scenes (no help from the rules)."""
    right = total = 0
    for p in validation:
        if not p.tiles:
            continue
        x = np.stack([read.as_input(cut(images[p.path], t.box, 0.0, None)) for t in p.tiles])
        with torch.no_grad():
            pn, pc = net(torch.from_numpy(x))
        names, table = read.tile_likelihoods(read.softmax(pn.numpy()), read.softmax(pc.numpy()))
        for t, row in zip(p.tiles, table, strict=True):
            best = int(row[:-1].argmax())
            right += names[best] == t.tile
            total += 1
    print(f"reader validation ({total} labelled tiles): read right {right / max(1, total):.3f}")


if __name__ == "__main__":
    main()
