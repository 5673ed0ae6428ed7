"""Bad input to the photo reader gets a clear ``PhotoError`` (or an empty reading), never a traceback."""

from __future__ import annotations

import io
import struct
import zlib

import pytest
from PIL import Image

from solver.errors import RummikubError
from tests.files import PHOTOS
from vision import PhotoError, read_photo


def encoded(image: Image.Image, fmt: str = "PNG") -> bytes:
    out = io.BytesIO()
    image.save(out, fmt)
    return out.getvalue()


def claiming_size(width: int, height: int) -> bytes:
    """A small PNG whose header claims ``width`` x ``height`` pixels (a decompression bomb's first bytes)."""
    data = bytearray(encoded(Image.new("RGB", (8, 8))))
    ihdr = 8 + 8  # signature, then the IHDR chunk's length and type
    data[ihdr : ihdr + 8] = struct.pack(">II", width, height)
    crc = zlib.crc32(bytes(data[ihdr - 4 : ihdr + 13]))
    data[ihdr + 13 : ihdr + 17] = struct.pack(">I", crc)
    return bytes(data)


def test_the_error_is_the_engines_error() -> None:
    assert issubclass(PhotoError, RummikubError)


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"", "empty"),
        (b"hello, this is text", "not a picture"),
        (b"%PDF-1.4\n" + b"x" * 1000, "not a picture"),
        (claiming_size(9000, 8000), "too large"),
        (encoded(Image.new("RGB", (12, 12))), "too small"),
    ],
)
def test_bad_input_is_a_clear_error(data: bytes, words: str) -> None:
    with pytest.raises(PhotoError, match=words):
        read_photo(data)


def test_a_cut_off_jpeg_is_a_clear_error() -> None:
    whole = next((PHOTOS / "images").glob("rummy4-4_*.jpg")).read_bytes()
    with pytest.raises(PhotoError):
        read_photo(whole[: len(whole) // 3])


def test_a_photo_without_tiles_is_read_as_no_tiles() -> None:
    grey = Image.new("RGB", (640, 480), (118, 96, 74))  # a plain brown table
    reading = read_photo(encoded(grey, "JPEG"))
    assert reading.tiles == ()
    assert reading.kind == "rack"
    assert reading.sets is None


def test_a_background_photo_shows_no_tiles() -> None:
    """The three copies of one bare table (two turned, with black corners). No background photo falls in the
    held-out fold, so these were trained on: the test asks only that a bare table stays bare."""
    backgrounds = sorted((PHOTOS / "images").glob("rummyBackground-*.jpg"))
    assert len(backgrounds) == 3
    for path in backgrounds:
        assert len(read_photo(path.read_bytes()).tiles) <= 1, path.name


def test_png_and_webp_and_greyscale_are_read() -> None:
    photo = next((PHOTOS / "images").glob("rummy4-4_*.jpg"))
    with Image.open(photo) as im:
        colour = im.convert("RGB")
    for data in (encoded(colour, "PNG"), encoded(colour, "WEBP"), encoded(colour.convert("L"), "PNG")):
        assert len(read_photo(data).tiles) > 0


def test_the_size_to_download_is_the_smallest_that_is_enough() -> None:
    from vision import enough

    assert enough([(90, 67), (320, 240), (800, 600), (1280, 960), (2560, 1920)]) == 3
    assert enough([(90, 67), (320, 240), (800, 600)]) == 2
    with pytest.raises(PhotoError):
        enough([])
