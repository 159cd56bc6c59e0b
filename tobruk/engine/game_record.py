"""What a game tells and keeps of itself: the log and the dice as each side may read them, a secret only the seed
gives, and the position as data with its canonical text and hash (the identity records, saves and replays check).

A part of :class:`~tobruk.engine.game.Game` (its base class), kept apart from the sequence of play, the listing and
undo: these read the position and never change it, but for the log's lines the rules write.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import TYPE_CHECKING, Any, cast

from tobruk.engine.canon import StateText
from tobruk.engine.dice import Dice, DieRoll
from tobruk.engine.plain import plain
from tobruk.engine.position import GameState, LogEntry, Reading, extend_reading
from tobruk.engine.sides import Side

if TYPE_CHECKING:
    from tobruk.engine.flow import Step
    from tobruk.engine.game import Game
    from tobruk.engine.state import UnitView


class GameRecord:
    """The log, the readings, the secret and the identity of a game (see the module's docstring); the game sets the
    fields declared here."""

    state: GameState
    dice: Dice
    seed: int
    unit_ids: tuple[str, ...]
    _read: dict[Side, Reading[LogEntry, str]]  # each side's reading of the log, kept
    _rolls_read: dict[Side, Reading[DieRoll, DieRoll]]

    if TYPE_CHECKING:  # (the game's own)

        @property
        def step(self) -> Step: ...

        def unit(self, unit_id: str) -> UnitView: ...

    def log(self, line: str, *, kind: str = "note", hidden_from: Side | None = None, instead: str | None = None) -> None:
        """Add a line to the log; ``hidden_from`` that side, which is shown ``instead`` (or nothing).  ``kind``
        says what it is about (move, battle, loss, supply, event, note), for the game log form."""
        private = () if hidden_from is None else ((hidden_from.value, instead),)
        self.state.entries.append(LogEntry(line, private, kind))

    def log_for(self, side: Side) -> list[str]:
        """The log as ``side`` may read it; once the game is over, all of it.

        The log only grows but for undo, so a side's reading is kept and extended by the entries written since;
        an undo or a refused action cuts the reading back with the log (:meth:`_cut_readings`).
        """
        s = self.state
        if s.over:
            return s.log
        return list(extend_reading(self._read, side, s.entries, lambda i, e: e.seen_by(side)))

    def rolls_for(self, side: Side) -> list[DieRoll]:
        """The die rolls ``side`` may see (every one once the game is over); kept and extended like :meth:`log_for`."""
        log = self.dice.log
        if self.state.over:
            return list(log)
        private = self.state.private_rolls
        return list(extend_reading(self._rolls_read, side, log, lambda i, r: r if private.get(i, side.value) == side.value else None))

    def _cut_readings(self) -> None:
        """After an undo or a refused action: cut the sides' kept readings back to the log and dice as they are."""
        if not (self._read or self._rolls_read):
            return
        for readings, items in ((self._read, self.state.entries), (self._rolls_read, self.dice.log)):
            for reading in readings.values():
                if reading.items is items:
                    reading.cut(len(items))

    def secret_mac(self, message: str) -> str:
        """A keyed hash of ``message`` under a key only the seed gives (e.g. face-down counters' anonymous ids).

        The seed is kept from the players until the game is over, so nobody can work these out or
        predict them; a replay of the record reproduces them.
        """
        key = hashlib.sha256(f"tobruk-secret:{self.seed}".encode()).digest()
        return hmac.new(key, message.encode(), hashlib.sha256).hexdigest()

    # --- identity: the position as data, its canonical text and hash ---------------------------------
    _state_text: StateText | None = None  # the pieces of the canonical text, made on the first state hash

    def state_data(self) -> dict[str, Any]:
        """The whole position as plain data: the definition of :meth:`state_hash`'s text (``canonical_json`` of
        this) and the input of save files."""
        s = self.state
        data = {
            "turn": s.turn,
            "step": self.step.key,
            "over": s.over,
            "units": {uid: self.unit(uid).to_data() for uid in sorted(self.unit_ids)},
            "vars": s.vars.to_data(),
            "stack": [{"frame": type(f).__name__, **plain(f)} for f in s.stack],
            "dice": self.dice.fingerprint(),
        }
        if s.ending:  # (only at a chance node a search stops at, in a step's end: never in a record of play)
            data["ending"] = s.ending
        return data

    def state_text(self) -> str:
        """``canonical_json(self.state_data())``, byte for byte, put together from cached pieces (see
        :mod:`tobruk.engine.canon`): the text is in every record, so it never changes, but the fuzzer needs it
        several times an action."""
        game = cast("Game", self)  # (a record is only ever a game's part)
        pieces = self._state_text
        if pieces is None:
            pieces = self._state_text = StateText(game)
        return pieces.text(game)

    def state_hash(self) -> str:
        return hashlib.sha256(self.state_text().encode()).hexdigest()[:32]
