"""Augmentation of real photos: scale, turn (any angle, 180° included; never a mirror), light, blur, noise.

One affine map moves the image and its tile outlines together, so the labels
stay true; the photometric changes imitate warm or dim light and phone softness.
"""

from __future__ import annotations

import math
import random

import numpy as np
from PIL import Image, ImageEnhance, ImageFilter

Matrix = np.ndarray


def affine(angle_deg: float, scale: float, centre_in: tuple[float, float], centre_out: tuple[float, float]) -> Matrix:
    """The 3x3 map from input pixels to output pixels: turn and scale about ``centre_in``, land on ``centre_out``."""
    a = math.radians(angle_deg)
    c, s = math.cos(a) * scale, math.sin(a) * scale
    cx, cy = centre_in
    ox, oy = centre_out
    return np.array([[c, -s, ox - c * cx + s * cy], [s, c, oy - s * cx - c * cy], [0.0, 0.0, 1.0]])


def warp(image: Image.Image, m: Matrix, size: tuple[int, int], fill: tuple[int, int, int]) -> Image.Image:
    """The image under ``m`` (PIL wants the inverse map, output to input)."""
    inv = np.linalg.inv(m)
    coeffs = tuple(float(v) for v in inv[:2].reshape(-1))
    return image.transform(size, Image.Transform.AFFINE, coeffs, resample=Image.Resampling.BILINEAR, fillcolor=fill)


def move_points(points: np.ndarray, m: Matrix) -> np.ndarray:
    ones = np.ones((len(points), 1))
    moved: np.ndarray = (np.hstack([points, ones]) @ m.T)[:, :2]
    return moved


def light(image: Image.Image, rng: random.Random, blur: float = 1.4, noise: float = 9.0) -> Image.Image:
    """Brightness, contrast, colour strength, a warm or cool cast, blur and noise (at most ``blur``, ``noise``)."""
    image = ImageEnhance.Brightness(image).enhance(rng.uniform(0.6, 1.35))
    image = ImageEnhance.Contrast(image).enhance(rng.uniform(0.7, 1.3))
    image = ImageEnhance.Color(image).enhance(rng.uniform(0.6, 1.4))
    pixels: np.ndarray = np.asarray(image, dtype=np.float32)
    warmth = rng.uniform(-0.12, 0.18)  # warm light: more red, less blue (blue against black is the hard case)
    pixels = pixels * np.array([1 + warmth, 1 + warmth / 3, 1 - warmth], dtype=np.float32)
    if rng.random() < 0.5:
        pixels = pixels + np.random.default_rng(rng.randrange(1 << 30)).normal(0, rng.uniform(1, noise), pixels.shape)
    image = Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8))
    if rng.random() < 0.35:
        image = image.filter(ImageFilter.GaussianBlur(rng.uniform(0.2, blur)))
    return image
