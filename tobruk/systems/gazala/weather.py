"""The weather of a game-turn (GG-VIII.0, A, B): the British player names two numbers, the Axis player's die is
read against them, and a die showing one of them is confirmed by a second."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from tobruk.engine.actions import Action
from tobruk.engine.chance import Chance
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.flow import Decision, on
from tobruk.systems.gazala import air
from tobruk.systems.gazala.actions import Weather
from tobruk.systems.gazala.state import gazala_vars
from tobruk.systems.gazala.steps import GazalaStep

if TYPE_CHECKING:
    from tobruk.engine.game import Game


class WeatherStep(GazalaStep):
    """GG-VIII.0, A, B: the British player names two numbers, the Axis player rolls."""

    def actions(self, game: Game, decision: Decision) -> list[Action]:
        return [Weather(s, r) for s in range(1, 7) for r in range(1, 7) if s != r]

    @on(Weather)
    def weather(self, game: Game, decision: Decision, order: Weather) -> bool:
        if order.sandstorm == order.rainstorm:
            raise IllegalOrderError("GG-VIII.0", "the sandstorm and rainstorm numbers must differ")
        game.push_frame(WeatherRoll(order.sandstorm, order.rainstorm))
        return True


@dataclass(frozen=True)
class WeatherRoll(Chance):
    """GG-VIII.0: the Axis player's weather die against the two numbers the British named; a die showing one of
    them is confirmed by a second (GG-VIII.A: 4-6 for a sandstorm; GG-VIII.B: the same number for a rainstorm)."""

    sandstorm: int
    rainstorm: int
    first: int = 0  # the weather die, once rolled: the frame is then the confirmation roll

    def purpose(self, game: Game) -> str:
        if not self.first:
            return "weather"
        return "sandstorm confirmation (4-6)" if self.first == self.sandstorm else "rainstorm confirmation (same number)"

    def resolve(self, game: Game, value: int) -> None:
        if not self.first:
            if value in (self.sandstorm, self.rainstorm):
                game.push_frame(replace(self, first=value))
            else:
                self.settled(game, value, "clear")
            return
        if self.first == self.sandstorm:
            self.settled(game, self.first, "sandstorm" if value >= 4 else "clear")
        else:
            self.settled(game, self.first, "rainstorm" if value == self.first else "clear")

    def settled(self, game: Game, first: int, weather: str) -> None:
        game.log(
            f"Weather: the British name {self.sandstorm} (sandstorm) and {self.rainstorm} (rainstorm); the Axis rolls {first}: {weather}."
        )
        gazala_vars(game).weather = weather
        air.weather_turn(game)
