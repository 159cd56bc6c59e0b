"""The two sides of every game in this family."""

from __future__ import annotations

from enum import StrEnum


class Side(StrEnum):
    AXIS = "axis"
    ALLIED = "allied"

    @property
    def enemy(self) -> Side:
        return Side.ALLIED if self is Side.AXIS else Side.AXIS

    @property
    def display(self) -> str:
        return "Axis" if self is Side.AXIS else "Allied"


SIDES = {s.value: s for s in Side}
