"""Typed interface of the compiled mask loop (tobruk/engine/_mask.c)."""

from collections.abc import Sequence

from typing_extensions import Buffer

def mark(mask: Buffer, blocks: Sequence[Sequence[int]], /) -> None: ...
