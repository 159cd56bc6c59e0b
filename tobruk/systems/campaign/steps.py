"""The kinds of step the campaign's sequence (:mod:`.sequence`) is made of: a step that logs itself and asks with the
turn's name on the track, and a step nobody decides."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tobruk.engine.flow import Decision, Step

if TYPE_CHECKING:
    from tobruk.engine.game import Game


def turn_title(game: Game) -> str:
    """The game-turn as the track names it ("II Nov 41")."""
    return game.scenario.turn_name(game.turn)


def attacks_played(game: Game) -> bool:
    """Whether the game's campaign allocates attacks: not in the faces' preview, whose attacks could not be resolved
    (:meth:`NorthAfricaCampaign.for_preview <tobruk.systems.campaign.NorthAfricaCampaign.for_preview>`)."""
    from tobruk.systems.campaign import NorthAfricaCampaign  # (the package imports this module)

    return not isinstance(game.system, NorthAfricaCampaign) or game.system.attacks


class CampaignStep(Step):
    """A step of a player-turn: it logs itself on entry, and asks its side with the turn's name in the prompt (in the
    preview, which allocates no attack, the prompt that says so, if the step has one)."""

    prompt = ""
    preview_prompt = ""

    def enter(self, game: Game) -> None:
        game.log(f"{turn_title(game)}: {self.title}.", kind="note")

    def decision(self, game: Game) -> Decision | None:
        assert self.side is not None
        prompt = self.preview_prompt if self.preview_prompt and not attacks_played(game) else self.prompt
        return Decision(self.side, self.key, f"{turn_title(game)}, {self.title}: {prompt}", self.clause)


class AutomaticStep(CampaignStep):
    """A step nobody decides: its rule runs in :meth:`finish`."""

    decides = False

    def decision(self, game: Game) -> Decision | None:
        return None

    def finish(self, game: Game) -> None:
        self.run(game)

    def run(self, game: Game) -> None:
        """The step's rule (none for a step whose rules are still to come)."""
