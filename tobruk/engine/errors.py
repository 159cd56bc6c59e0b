"""The exceptions a caller of the engine can meet, each saying exactly what went wrong."""

from __future__ import annotations


class TobrukError(Exception):
    """Base of every error the engine raises on purpose."""


class ScenarioError(TobrukError, ValueError):
    """A scenario, map or geography file is malformed: names the file, the field and what was expected."""

    def __init__(self, source: str, field: str, problem: str) -> None:
        self.source = source
        self.field = field
        self.problem = problem
        super().__init__(f"{source}: {field}: {problem}")

    def __reduce__(self) -> tuple[type, tuple[str, str, str]]:  # picklable across processes
        return (type(self), (self.source, self.field, self.problem))


class InvalidOrderError(TobrukError, ValueError):
    """An order's text does not follow the notation (a syntax error, not a rules question)."""


class IllegalOrderError(TobrukError, ValueError):
    """An order the rules forbid now; ``clause`` names the rule (e.g. ``GG-XIII.B.3``)."""

    def __init__(self, clause: str, reason: str) -> None:
        self.clause = clause
        self.reason = reason
        super().__init__(f"{reason} [{clause}]")

    def __reduce__(self) -> tuple[type, tuple[str, str]]:  # picklable across processes
        return (type(self), (self.clause, self.reason))


class UndoError(TobrukError):
    """Undo was asked for where it may not go: past a die roll, a reveal, or the start."""


class RecordError(TobrukError, ValueError):
    """A saved game record is malformed, tampered with, or does not replay."""
