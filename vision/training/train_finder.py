"""Trains the tile finder on the training scenes and exports ``vision/models/finder.onnx``.

Run: ``python -m vision.training.train_finder PHOTOS [--steps N] [--seed S]``. Prints
the validation figures (tiles found and finds that are tiles, centre inside a
labelled box) on the held-out scenes.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

import numpy as np
import torch
from PIL import Image

from vision import find
from vision.training import augment, photos
from vision.training.detector_net import SIDE, STRIDE, Finder

MODELS = Path(__file__).resolve().parents[1] / "models"
#: training windows are smaller than the 320 canvas (the network is fully convolutional): 2x cheaper
TRAIN_SIDE = 224


def sample(
    photo: photos.Photo, image: Image.Image, rng: random.Random, side: int = TRAIN_SIDE
) -> tuple[np.ndarray, np.ndarray]:
    """An augmented window (``side`` square) of the 320 canvas and its target: heat, log size, offset, mask."""
    cells = side // STRIDE
    fit = SIDE / max(image.size)
    scale = fit * rng.uniform(0.55, 1.5)
    angle = rng.uniform(-25, 25) + (180 if rng.random() < 0.25 else 0)
    centre_in = (
        image.width / 2 + rng.uniform(-0.2, 0.2) * image.width,
        image.height / 2 + rng.uniform(-0.2, 0.2) * image.height,
    )
    centre_out = (side / 2 + rng.uniform(-40, 40), side / 2 + rng.uniform(-40, 40))
    m = augment.affine(angle, scale, centre_in, centre_out)
    fill = (0, 0, 0) if rng.random() < 0.5 else tuple(rng.randrange(256) for _ in range(3))
    out = augment.light(augment.warp(image, m, (side, side), fill), rng)  # type: ignore[arg-type]
    x = (np.asarray(out, dtype=np.float32) / 255.0 - find.MEAN).transpose(2, 0, 1)
    target = np.zeros((6, cells, cells), dtype=np.float32)
    yy, xx = np.mgrid[0:cells, 0:cells]
    for t in photo.tiles:
        pts = augment.move_points(np.array(t.polygon), m)
        x0, y0 = pts.min(axis=0)
        x1, y1 = pts.max(axis=0)
        cx, cy = (x0 + x1) / 2 / STRIDE, (y0 + y1) / 2 / STRIDE
        w, h = (x1 - x0) / STRIDE, (y1 - y0) / STRIDE
        if not (0 <= cx < cells and 0 <= cy < cells) or min(w, h) < 1.0:
            continue
        sigma = max(0.6, min(w, h) / 6)
        g = np.exp(-((xx - cx + 0.5) ** 2 + (yy - cy + 0.5) ** 2) / (2 * sigma**2))
        target[0] = np.maximum(target[0], g)
        ix, iy = int(cx), int(cy)
        target[0, iy, ix] = 1.0
        target[1:5, iy, ix] = (np.log(w), np.log(h), cx - ix - 0.5, cy - iy - 0.5)
        target[5, iy, ix] = 1.0
    return x, target


def loss_of(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """CenterNet's focal loss on the heat, L1 on size and offset at the centres."""
    heat = torch.sigmoid(pred[:, 0]).clamp(1e-4, 1 - 1e-4)
    gt = target[:, 0]
    pos = (gt >= 1.0).float()
    neg = 1 - pos
    pos_loss = -(torch.log(heat) * (1 - heat) ** 2 * pos).sum()
    neg_loss = -(torch.log(1 - heat) * heat**2 * (1 - gt) ** 4 * neg).sum()
    n = pos.sum().clamp(min=1)
    mask = target[:, 5:6]
    reg = (torch.abs(pred[:, 1:5] - target[:, 1:5]) * mask).sum() / n
    return (pos_loss + neg_loss) / n + reg


def evaluate(session_run: object, validation: list[photos.Photo]) -> tuple[float, float]:
    """(share of labelled tiles found, share of finds that are a tile) on the validation photos."""
    run = session_run  # a callable: canvas -> output
    labelled = hit = finds = true = 0
    for p in validation:
        with Image.open(p.path) as im:
            image = im.convert("RGB")
        x, scale = find.canvas(image)
        found = find.peaks(run(x), scale)  # type: ignore[operator]
        boxes = [t.box for t in p.tiles]
        labelled += len(boxes)
        finds += len(found)
        used: set[int] = set()
        for f in found:
            cx, cy = f.centre
            inside = [i for i, b in enumerate(boxes) if b[0] <= cx <= b[2] and b[1] <= cy <= b[3] and i not in used]
            if inside:
                best = min(
                    inside,
                    key=lambda i: (boxes[i][0] + boxes[i][2] - 2 * cx) ** 2 + (boxes[i][1] + boxes[i][3] - 2 * cy) ** 2,
                )
                used.add(best)
                true += 1
        hit += len(used)
    return hit / max(1, labelled), true / max(1, finds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    photos.add_argument(parser)
    parser.add_argument("--steps", type=int, default=700)
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--out", type=Path, default=MODELS / "finder.onnx")
    args = parser.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    rng = random.Random(args.seed)
    np.random.seed(args.seed)
    training, validation = photos.split(photos.load(args.photos))
    images = {}
    for p in training:
        with Image.open(p.path) as im:
            images[p.path] = im.convert("RGB")
    net = Finder()
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    start = time.monotonic()
    batch = 12
    for step in range(1, args.steps + 1):
        frac = step / args.steps
        for g in opt.param_groups:
            g["lr"] = 3e-3 * 0.5 * (1 + np.cos(np.pi * min(1.0, frac)))
        chosen = [rng.choice(training) for _ in range(batch)]
        xs, ts = zip(*(sample(p, images[p.path], rng) for p in chosen), strict=True)
        pred = net(torch.from_numpy(np.stack(xs)))
        loss = loss_of(pred, torch.from_numpy(np.stack(ts)))
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 50 == 0:
            print(f"step {step} loss {loss.item():.3f} {time.monotonic() - start:.0f}s", flush=True)
    net.eval()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        net,
        (torch.zeros(1, 3, SIDE, SIDE),),
        str(args.out),
        dynamo=False,
        input_names=["canvas"],
        output_names=["heat"],
        opset_version=17,
    )

    def run(x: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            out: np.ndarray = net(torch.from_numpy(x)).numpy()
        return out

    found, precise = evaluate(run, [p for p in validation if p.tiles])
    print(f"finder validation ({len(validation)} images): tiles found {found:.3f}, finds that are tiles {precise:.3f}")


if __name__ == "__main__":
    main()
