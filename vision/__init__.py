"""Reading Rummikub tiles from a photo, offline: finding tiles, reading number and colour, laying a table into sets.

The API the bot uses::

    from vision import read_photo, PhotoError, PhotoReading

    reading = read_photo(jpeg_bytes)            # rules=STANDARD, kind=None (guess rack or table)
    reading.kind          # "rack" or "table"
    reading.tiles         # every tile read, in reading order (a table's: set by set, then the loose ones)
    reading.sets          # a table photo's sets as they lie (valid TileSets), or None for a rack
    reading.loose         # a table photo's tiles that lie in no set
    reading.uncertain     # tiles read with low confidence or changed by the rules
    reading.corrections   # one line per rule-based fix ("read 3R as 9R so that 7R 8R 9R is valid")
    reading.seen          # each tile with its confidence and box in the photo's pixels
    reading.ms            # CPU time of the reading
    reading.as_json()     # the object ``python -m bot photo FILE --json`` prints

Of the sizes Telegram offers for a photo, ``enough([(w, h), ...])`` picks the
index of the one to download (the smallest with a side of 1280 px or more).

``read_photo`` raises ``PhotoError`` (a ``RummikubError``) with a message a
player can read for input that is not a readable picture (not an image, a
damaged file, more than 50 megapixels, smaller than 32 px); a photo without
tiles is read as a rack of no tiles. Two small networks (``vision/models``,
trained by ``vision.training``) run with ONNX Runtime on one CPU thread; the
call is synchronous and CPU-bound, so an asyncio caller should run it in a
worker thread or process. May import ``solver``, nothing else of ours.
"""

from vision.errors import PhotoError
from vision.photo import PhotoReading, SeenTile, read_photo
from vision.picture import enough

__all__ = ["PhotoError", "PhotoReading", "SeenTile", "enough", "read_photo"]
