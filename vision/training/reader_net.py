"""The tile reader's network: a small CNN on a 48x48 tile crop with two heads, number (15) and colour (4)."""

from __future__ import annotations

from typing import Any

from torch import nn


def _cbr(i: int, o: int) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(i, o, 3, 1, 1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True))


class Reader(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.body = nn.Sequential(
            _cbr(3, 24),
            _cbr(24, 24),  # two layers at full size keep the digits' strokes
            nn.MaxPool2d(2),  # 24
            _cbr(24, 48),
            _cbr(48, 48),
            nn.MaxPool2d(2),  # 12
            _cbr(48, 64),
            _cbr(64, 64),
            nn.MaxPool2d(2),  # 6
            _cbr(64, 96),
            nn.MaxPool2d(2),  # 3: where the digit sits against the logo still shows
            nn.Flatten(),
            nn.Dropout(0.2),
            nn.Linear(96 * 9, 128),
            nn.ReLU(inplace=True),
        )
        self.number = nn.Linear(128, 15)
        self.colour = nn.Linear(128, 4)

    def forward(self, x: Any) -> tuple[Any, Any]:
        f = self.body(x)
        return self.number(f), self.colour(f)
