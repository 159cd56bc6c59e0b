"""Games of the campaign for its sequence tests: made with the system given directly (it is registered
``playable = False`` until combat is played, the faces playing only a preview that allocates no attack;
docs/architecture.md), arranged by hand on the real map, and walked to a step."""

from __future__ import annotations

from functools import cache

from tobruk.board.hexes import Hex
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.game import Game
from tobruk.loading.scenario import Scenario, load_scenario
from tobruk.mechanics.actions import EndPhase, Place
from tobruk.systems.campaign import NorthAfricaCampaign
from tobruk.systems.campaign.state import CampaignCounter, counter

H = Hex.parse
SYSTEM = NorthAfricaCampaign()


@cache
def scenario(name: str) -> Scenario:
    return load_scenario(name)


def new_game(name: str = "na-gazala", seed: int = 0) -> Game:
    return Game(scenario(name), seed=seed, system=SYSTEM)


def unit(game: Game, uid: str) -> CampaignCounter:
    return counter(game, uid)


def arrange(game: Game, placed: dict[str, str], **statuses: tuple[str, ...]) -> Game:
    """Put units on hexes (``{"90Lt": "V34"}``), every other unit off the map; set statuses
    (``disrupted=("90Lt",)``)."""
    for uid in game.unit_ids:
        unit(game, uid).hex = None
    for uid, label in placed.items():
        unit(game, uid).hex = H(label)
    for name, ids in statuses.items():
        for uid in ids:
            unit(game, uid).set_flag(name, True)
    return game


def to_step(game: Game, key: str) -> Game:
    """Press end-phase until the game stands at the step ``key`` (with a decision there), past the set-up as
    :func:`past_set_up` does (unless ``key`` is a set-up step)."""
    if not key.endswith("-set-up"):
        past_set_up(game)
    for _ in range(200):
        if game.step.key == key and game.decision is not None:
            return game
        game.play(EndPhase())
    raise AssertionError(f"the game never reached {key}")


def past_set_up(game: Game) -> Game:
    """End both sides' set-up at once, every unit kept on its listed hex (the scenario's default, CA-SC.1-9); a unit
    that must be set up on the map first (one entering on turn 1) goes to the first hex offered it."""
    while game.step.key.endswith("-set-up") and game.decision is not None:
        try:
            game.play(EndPhase())
        except IllegalOrderError:
            game.play(next(a for a in game.legal_orders() if isinstance(a, Place)))
    return game


def lines_since(game: Game, n: int) -> list[str]:
    return [e.text for e in game.state.entries[n:]]
