"""Game systems by name: each holds its charts as data and the rule hooks that differ between games.

Modelled on python-chess's variants: a flat registry of small classes, no deep hierarchy.
``find_system("gazala-gallop")`` returns the class; the game instantiates it.
"""

from __future__ import annotations

from tobruk.systems.base import Decision, Phase, System

_REGISTRY: dict[str, type[System]] = {}


def register(cls: type[System]) -> type[System]:
    _REGISTRY[cls.name] = cls
    return cls


def find_system(name: str) -> type[System]:
    _load_builtin()
    try:
        return _REGISTRY[name]
    except KeyError:
        raise KeyError(f"no game system {name!r}; known: {', '.join(sorted(_REGISTRY))}") from None


def system_names() -> list[str]:
    _load_builtin()
    return sorted(_REGISTRY)


def _load_builtin() -> None:
    from tobruk.systems import gazala  # noqa: F401  (registers itself)


__all__ = ["Decision", "Phase", "System", "find_system", "register", "system_names"]
