"""The person at the terminal (``tobruk play``): his decisions, typed in the game's notation or picked by number, and
what his side may read of the game as it goes.

What he is told is his side's reading of the log and nothing else: each log entry as that side reads it
(``LogEntry.seen_by``: the line, the line it is shown instead, or nothing), the same reading his side's view gives
(``Game.log_for``).  So the results of his orders (an air strike's die and result, an attack's odds, die and result,
the retreats and losses) and what the other side did while he waited are printed as the rules wrote them for his
side, and nothing the fog of war hides from him reaches the terminal: no computer player's orders, no count of them.
The module knows no game system: the lines are the system's own, the orders its vocabulary's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from tobruk.engine.actions import Action
from tobruk.engine.errors import TobrukError, UndoError
from tobruk.engine.game import Game
from tobruk.engine.objectives import threats
from tobruk.engine.offers import ending_costs, in_context
from tobruk.engine.sides import Side
from tobruk.players.base import Player, outcomes_for
from tobruk.render.palette import Palette
from tobruk.view import view

Read = Callable[[str], str]
Write = Callable[[str], object]

HELP = """Type an order in the game's notation (its forms: {forms}),
or the number of one of the legal orders, or:
  legal   list the legal orders (numbered)      show   the position (units, weather, phase)
  undo    take back the last order (not past a die roll)
  help    this text                              quit   stop (with --record the game so far is saved)"""


def help_text(game: Game) -> str:
    """The terminal's help, with the forms of the game system's own orders (its vocabulary's): the command line knows
    no system's orders, a person types them or picks one by its number."""
    return HELP.format(forms=" | ".join(t.form or t.verb for t in game.system.vocabulary))


def heading(game: Game) -> str:
    """Turn (as the scenario names it: "Turn 3", or the date on a system's track), phase and what the system notes
    of the turn (e.g. the weather)."""
    return ", ".join([game.scenario.turn_name(game.turn), game.phase.title, *(f"{k} {v}" for k, v in game.system.turn_notes(game).items())])


def status_words(game: Game, uid: str) -> str:
    """A unit's status in its system's own words (a system may call a disrupted unit "spent")."""
    words = Palette(game.system.rendering()).words(
        game.defs[uid].side.value, game.unit(uid).value().to_data(), game.system.status_reasons(game, uid)
    )
    return "".join(f" {w}" for w in words)


def player_turn(game: Game) -> tuple[int, int]:
    """Where the current player-turn starts: the game-turn and the first of the run of steps of the current step's
    side that holds it (a set-up, a siege and a player-turn of one side are runs of their own)."""
    steps, i = game.steps, game.state.step
    start = i
    while start > 0 and steps[start - 1].side is steps[i].side:
        start -= 1
    return game.turn, start


def threat_lines(game: Game, side: Side) -> list[str]:
    """``side``'s objectives the enemy could reach in its next move, as its side may know the enemy (worded as the
    page words them, one a line): nothing when none is threatened."""
    return [f"Threatened: {t.describe()}" for t in threats(game, side)]


class LogReader:
    """How far one side at the terminal has read the log, and the lines it may read since.

    A place in the log's entries, each read as the side reads it: the lines its view's log holds, in the same order.
    The log only grows but for an undo or a refused order, which cut it back; :meth:`since` then starts from where the
    log now ends (the human's undo calls it at once, before anything is written again)."""

    def __init__(self, side: Side, *, watching: bool = False) -> None:
        self.side = side
        self.upto = 0
        self.decided = False  # whether the side has given an order yet (for the summary's heading)
        self.watching = watching  # a side the rules play: its person reads, never decides
        self.warned: tuple[int, int] | None = None  # the player-turn whose threats the side was told (once each)

    def warnings(self, game: Game) -> list[str]:
        """At the side's first decision in a player-turn of its own (its set-up, its movement ahead), the objectives
        the enemy could reach in its next move; nothing at its other decisions, nor again in the same player-turn."""
        if game.step.side is not self.side or self.warned == (turn := player_turn(game)):
            return []
        self.warned = turn
        return threat_lines(game, self.side)

    def since(self, game: Game) -> list[str]:
        """The lines of the log the side may read that were written since it last asked (and it has now read)."""
        entries = game.state.entries
        start = min(self.upto, len(entries))
        self.upto = len(entries)
        return [text for entry in entries[start:] if (text := entry.seen_by(self.side)) is not None]

    def summary(self, game: Game) -> list[str]:
        """What happened since the side last decided, as it may read it (what the other side did, the results of
        orders that came after his, the end of a turn), under a heading; nothing when nothing happened."""
        lines = self.since(game)
        if not lines:
            return []
        when = "as your side saw it" if self.watching else "since your last order" if self.decided else "before your first order"
        return [f"{self.side.display}, {when}:", *(f"  {line}" for line in lines)]


def cost_of(game: Game, order: Action, legal: Sequence[Action]) -> str:
    """What a legal ``order`` would cost later by the rules, as the page warns of it (ending the phase with units
    over-stacked or owing a retreat, :func:`ending_costs`; a move into a hex it over-stacks, the node's warning);
    nothing for an order that costs nothing, or is not one of ``legal`` (playing it is refused)."""
    if order not in legal:
        return ""
    if order.ends_step and (costs := ending_costs(game)):
        return costs
    return in_context(game, [order])[2][0]


def human_turn(game: Game, read: Read = input, write: Write = print, reader: LogReader | None = None) -> bool:
    """One human decision at the terminal; False when the human quits.  The person types notation (his own text,
    parsed by the game's vocabulary) or picks a listed order by its number (played as the listed action itself): the
    command line puts no order together.  An order that would cost something later by the rules (:func:`cost_of`)
    is played only when given twice running, as the page asks a second press: the first time he is told the cost.
    With a ``reader``, what his order did is written as soon as it is played: the lines the log gained that his side
    may read (an air strike's die and result, an attack's, the retreats)."""
    decision = game.decision
    assert decision is not None
    legal = game.legal_orders()
    warned: Action | None = None  # the order whose cost he was just told: the same again makes it
    while True:
        try:
            text = read(f"{decision} > ").strip()
        except EOFError:
            return False
        if text in ("quit", "exit"):
            return False
        if text in ("help", "?", "legal", "show"):
            warned = None  # (a cost is confirmed by giving the order again at once, nothing between)
        if text in ("help", "?"):
            write(help_text(game))
            continue
        if text == "legal":  # each order's notation, what it does in the words the page's buttons give it, and its cost
            costs = ending_costs(game) if any(o.ends_step for o in legal) else ""
            said, _, warnings = in_context(game, legal)
            for i, (o, says, warning) in enumerate(zip(legal, said, warnings, strict=True), 1):
                warning = costs if o.ends_step and costs else warning
                beware = f"  [beware: {warning}]" if warning else ""
                write(f"{i:4}  {o.notation()}" + ("" if says == o.notation() else f"  ({says})") + beware)
            continue
        if text == "show":
            write(heading(game))
            for uid in game.unit_ids:
                u = game.unit(uid)
                if u.hex is not None and not u.eliminated and (game.defs[uid].side is decision.side or not u.hidden):
                    write(f"  {uid:<11} {game.defs[uid].factors:<6} {u.hex.label:<4}{status_words(game, uid)}")
            continue
        if text == "undo":
            try:
                write(f"undone: {game.pop().notation()}")
            except UndoError as exc:
                write(f"cannot undo: {exc}")
            if reader is not None:
                reader.since(game)  # (the log was cut back with the order: read on from where it now ends)
            return True
        try:
            order = legal[int(text) - 1] if text.isdigit() and 1 <= int(text) <= len(legal) else game.parse(text)
            cost = cost_of(game, order, legal)
            if cost and order != warned:
                warned = order
                write(f"beware: {cost}.  Give the order again to make it anyway, or another.")
                continue
            game.play(order)
        except TobrukError as exc:
            write(f"refused: {exc}")
            continue
        if reader is not None:
            reader.decided = True
            for line in reader.since(game):
                write(f"  {line}")
        return True


def play(game: Game, players: Mapping[Side, Player], *, read: Read = input, write: Write = print, verbose: bool = False) -> None:
    """Play ``game`` until it is over or a person quits: each side in ``players`` by its computer player, each other
    side by the person at the terminal.

    Before each of his decisions he is told what happened since his last (the other side's moves, attacks and their
    results, as his side may read them), then the turn if it is a new one, and at his first decision in a player-turn
    of his side the objectives the enemy could reach in its next move; after each of his orders, what it did.
    ``verbose`` writes each computer player's decision and order, but only in a game with no person at the terminal:
    beside a person it would show him orders the fog hides (a face-down placement)."""
    ruled = game.system.ruled_sides(game)
    readers = {side: LogReader(side, watching=side in ruled) for side in Side if side not in players}
    watching = bool(readers) and all(side in ruled for side in readers)  # no person decides: each watches his side
    for side in readers:
        if side in ruled:
            write(f"The rules play the {side.display} side in this game: you watch what it may see.")
    last_turn = 0

    def new_turn() -> None:
        nonlocal last_turn
        if game.turn != last_turn:
            last_turn = game.turn
            notes = "".join(f"  {k}: {v}" for k, v in game.system.turn_notes(game).items())
            write(f"{game.scenario.turn_of_turns(game.turn)}{notes}")

    while (decision := game.decision) is not None:
        reader = readers.get(decision.side)
        if reader is None:
            if watching and game.turn != last_turn:
                for each in readers.values():  # (what the turn that ended showed his side)
                    for line in each.summary(game):
                        write(line)
            if not readers or watching:
                new_turn()
            order = players[decision.side].choose(view(game, decision.side), game.legal_orders(), outcomes_for(game, decision.side))
            if verbose and not readers:
                write(f"  {decision}  ->  {order.notation()}")
            game.play(order)
            continue
        for line in reader.summary(game):
            write(line)
        new_turn()
        for line in reader.warnings(game):
            write(line)
        if not human_turn(game, read, write, reader):
            return
    for reader in readers.values():  # the end of the game, as each person's side read it
        for line in reader.summary(game):
            write(line)
