"""The tile finder's network: a small CenterNet (a heat map of tile centres and each tile's size).

Input: a 320x320 RGB canvas (the photo scaled to fit, then padded); output at
stride 4: one channel of centre heat (logits), two of log size and two of
centre offset within the cell.
"""

from __future__ import annotations

from typing import Any

from torch import nn

SIDE = 320
STRIDE = 4


def _cbr(i: int, o: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(i, o, 3, stride, 1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True))


class Finder(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.s2 = _cbr(3, 16, 2)  # 160
        self.s4 = nn.Sequential(_cbr(16, 32, 2), _cbr(32, 32))  # 80
        self.s8 = nn.Sequential(_cbr(32, 48, 2), _cbr(48, 48))  # 40
        self.s16 = nn.Sequential(_cbr(48, 80, 2), _cbr(80, 80))  # 20
        self.s32 = nn.Sequential(_cbr(80, 112, 2), _cbr(112, 112))  # 10
        self.l16 = nn.Conv2d(112, 80, 1)
        self.u16 = _cbr(80, 64)
        self.l8 = nn.Conv2d(64, 48, 1)
        self.u8 = _cbr(48, 40)
        self.l4 = nn.Conv2d(40, 32, 1)
        self.u4 = _cbr(32, 32)
        self.head = nn.Conv2d(32, 5, 1)
        nn.init.constant_(self.head.bias[:1], -2.2)  # few cells are centres: start the heat low

    def forward(self, x: Any) -> Any:
        up = nn.functional.interpolate
        f4 = self.s4(self.s2(x))
        f8 = self.s8(f4)
        f16 = self.s16(f8)
        f32 = self.s32(f16)
        y = self.u16(f16 + up(self.l16(f32), scale_factor=2.0, mode="nearest"))
        y = self.u8(f8 + up(self.l8(y), scale_factor=2.0, mode="nearest"))
        y = self.u4(f4 + up(self.l4(y), scale_factor=2.0, mode="nearest"))
        return self.head(y)
