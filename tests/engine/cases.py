"""The games the engine's tests run on, found through the registry: every playable system's first packaged scenario,
and the toy system's full skirmish (tests/toy_system.py), each played with no option and with each of its options
alone.  A system registered with a packaged scenario is checked by every test parametrized over :data:`CASES` without
a change here; one registered without a packaged scenario fails ``test_every_playable_system_has_a_case``."""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from tests.toy_system import NAME as TOY_SYSTEM
from tests.toy_system import toy_scenario
from tobruk.engine.actions import Action
from tobruk.engine.game import Game
from tobruk.engine.system import system_names
from tobruk.loading.datafile import read_packaged_toml
from tobruk.loading.scenario import Scenario, load_scenario, scenario_names

TOY = "toy-full"  # the toy's scenario, made by toy_scenario(full=True) (no packaged file)


@dataclass(frozen=True)
class Case:
    """A system, the scenario its games are played on, and the options chosen."""

    system: str
    scenario: str
    options: tuple[str, ...] = ()

    @property
    def id(self) -> str:
        return "+".join((self.scenario, *self.options))

    def load(self) -> Scenario:
        """The scenario, read once for every test (so its games share one action space)."""
        return _scenario(self.scenario)

    def fresh(self) -> Scenario:
        """The scenario read anew: another scenario object."""
        return toy_scenario(full=True) if self.scenario == TOY else load_scenario(self.scenario)

    def unpackaged(self) -> Scenario | None:
        """The scenario a record's replay must be given, as it is not packaged (``None``: found by its name)."""
        return self.load() if self.scenario == TOY else None

    def game(self, seed: int = 0, **kwargs: Any) -> Game:
        return Game(self.load(), seed=seed, options=self.options, **kwargs)


@functools.cache
def _scenario(name: str) -> Scenario:
    return toy_scenario(full=True) if name == TOY else load_scenario(name)


def packaged() -> dict[str, list[tuple[str, list[str]]]]:
    """Each system's packaged scenarios (name, option names), in order of name, as their files say."""
    out: dict[str, list[tuple[str, list[str]]]] = {}
    for name in scenario_names():
        data: Mapping[str, Any] = read_packaged_toml("scenarios", name).data
        out.setdefault(str(data["system"]), []).append((name, [str(o["name"]) for o in data.get("option", [])]))
    return out


def cases() -> list[Case]:
    found: list[Case] = []
    scenarios = packaged()
    for system in system_names():
        if system == TOY_SYSTEM:
            first, options = TOY, [o.name for o in toy_scenario(full=True).options]
        elif system in scenarios:
            first, options = scenarios[system][0]
        else:
            continue  # test_every_playable_system_has_a_case names it
        found += [Case(system, first), *(Case(system, first, (option,)) for option in options)]
    return found


CASES = cases()
IDS = [c.id for c in CASES]


def walk(game: Game, seed: int, limit: int) -> Iterator[Game]:
    """The positions of a random game (the actions drawn with ``seed``), each before its action: at most ``limit``,
    fewer if the game ends first."""
    rng = random.Random(seed)
    for _ in range(limit):
        if game.decision is None:
            return
        yield game
        game.play(rng.choice(game.legal_orders()))


def undoable(game: Game, rng: random.Random, tries: int = 12) -> Action | None:
    """A legal action after which undo is allowed (no die rolled, nothing revealed) and a decision is open, if one of
    ``tries`` drawn is."""
    legal = game.legal_orders()
    for action in rng.sample(legal, min(tries, len(legal))):
        trial = game.copy()
        trial.play(action)
        if trial.can_undo() and trial.decision is not None:
            return action
    return None
