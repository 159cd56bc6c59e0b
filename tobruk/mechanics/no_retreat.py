"""No Retreat! orders in words (GG-XIV.B.5, FA-CRT.7), for the defender's button: which faces of the battle's die the
orders change for one defending unit at the attack's odds, and into what ("a 1 or 2 (R2) eliminates it (DE) instead of
a retreat").  The system gives each face's result and the unit's code with and without the orders (its own
conversions); the words are shared, so the family's systems say it alike."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence


def changed_faces(results: Sequence[str], code: Callable[[str, bool], str]) -> dict[tuple[str, str, str], list[int]]:
    """The die faces (1 up) whose result the orders change for the unit, grouped by (result, code without orders,
    code with them): ``results`` is each face's result at the attack's odds, ``code(result, held)`` the unit's code."""
    changed: dict[tuple[str, str, str], list[int]] = {}
    for face, result in enumerate(results, 1):
        before, after = code(result, False), code(result, True)
        if before != after:
            changed.setdefault((result, before, after), []).append(face)
    return changed


def faces_in_words(faces: Sequence[int]) -> str:
    """Die faces as a player says them: "a 6", "a 4 or 5", "a 1, 2 or 3"."""
    words = [str(f) for f in faces]
    return "a " + (words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}")


def hold_words(unit: str, odds: str, changed: Mapping[tuple[str, str, str], list[int]], effects: Mapping[str, str], clause: str) -> str:
    """The button's words for No Retreat! orders to ``unit`` at ``odds``: each change (:func:`changed_faces`) with what
    its new code does (``effects``: "DE" -> "eliminates it"), or that no result changes for it, on ``clause``."""
    head = f"Give {unit} No Retreat! orders: it will not retreat"
    if not changed:
        return f"{head}; at {odds} no result changes for it ({clause})"
    told = [
        f"{faces_in_words(faces)} ({result}) {effects.get(after, after)} ({after}) instead of "
        + ("a retreat" if before in ("R1", "R2") else before)
        for (result, before, after), faces in changed.items()
    ]
    return f"{head}: at {odds} {', and '.join(told)} ({clause})"
