"""The designer's Game Log and Analysis Form, filled in from a game record (``tobruk form``).

The facts come from replaying the record: the game, the players, the winner and level with every
line of the score, what the system notes of the final position (the boxes held and lost ...), and
turn by turn what the system notes (the weather ...), the main moves, every battle with its odds,
die and result, the units lost and the supply crises, read from the log by the kind of each line.  Room is left for the
players' own analysis, as on the printed form.  Markdown and HTML are plain text; PDF needs the
``reports`` extra (fpdf2).  :func:`plots` draws each side's strength, units out of supply and points over
the turns (matplotlib), and :func:`turn_maps` the map at the end of each turn.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from pathlib import Path

from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.loading.scenario import Scenario
from tobruk.record import Record, check_dice, play_recorded, start


@dataclass
class TurnNotes:
    turn: int
    notes: dict[str, str] = field(default_factory=dict)
    moves: dict[str, list[str]] = field(default_factory=lambda: {"axis": [], "allied": []})
    battles: list[str] = field(default_factory=list)
    losses: list[str] = field(default_factory=list)
    supply: list[str] = field(default_factory=list)
    other: list[str] = field(default_factory=list)
    strength: dict[str, int] = field(default_factory=dict)
    map_svg: str = ""
    out_of_supply: dict[str, int] = field(default_factory=dict)
    gvp: dict[str, float] = field(default_factory=dict)


@dataclass
class GameLog:
    title: str
    game_number: str
    date: str
    players: dict[str, str]
    result_lines: list[str]
    facts: list[tuple[str, list[tuple[str, str]]]]
    turns: list[TurnNotes]
    final: Game
    score_title: str = "Points if the game ended now"
    strength_title: str = "Strength on the map"


def _dated(game: Game, turn: int) -> str:
    """A dated track's name of the turn in brackets (" (II Jun 42)"), else nothing."""
    name = game.scenario.turn_name(turn)
    return "" if name == f"Turn {turn}" else f" ({name})"


def _snapshot(game: Game, notes: TurnNotes, turn_notes: dict[str, str] | None = None) -> None:
    """The end of a turn: ``turn_notes`` are the system's notes as the turn's last order found them (the game
    may already be in the next turn, whose notes, a date or the weather, are not this one's)."""
    from tobruk.render.svg import render_map

    notes.notes = game.system.turn_notes(game) if turn_notes is None else turn_notes
    notes.map_svg = render_map(
        game.scenario.map,
        [(game.defs[u], game.unit(u).value()) for u in game.unit_ids],
        size=16,
        title=f"{game.scenario.title}, end of turn {notes.turn}{_dated(game, notes.turn)}",
        rendering=game.system.rendering(),
        objectives=game.system.objectives(game.scenario),
    )
    for side in Side:
        notes.strength[side.value] = game.system.strength(game, side)
        notes.out_of_supply[side.value] = game.system.out_of_supply(game, side)
    score = game.system.score_now(game)
    if score is not None:
        notes.gvp = dict(score)


def build(
    rec: Record, *, source: str = "record", game_number: str = "", date: str = "", scenario: Scenario | None = None, verify: bool = True
) -> GameLog:
    """Replay the record order by order and collect the facts for the form.

    With ``verify`` (the default) the record must replay to every recorded state hash and die, so a form is
    never filled in from an altered record; a bad record raises :class:`RecordError` naming the order.
    """
    game = start(rec, verify=verify, source=source, scenario=scenario)
    turns: dict[int, TurnNotes] = {}
    seen = len(game.state.entries)
    for i in range(len(rec.orders)):
        turn = game.turn
        decision = game.decision
        noted = game.system.turn_notes(game)
        play_recorded(game, rec, i, verify=verify, source=source)
        notes = turns.setdefault(turn, TurnNotes(turn))
        for entry in game.state.entries[seen:]:
            line = entry.text
            if entry.kind == "battle":
                notes.battles.append(line)
            elif entry.kind == "loss":
                notes.losses.append(line)
            elif entry.kind == "supply":
                notes.supply.append(line)
            elif entry.kind == "move" and decision is not None:
                notes.moves[decision.side.value].append(line.split(": ", 1)[-1].rstrip("."))
            elif entry.kind == "event":
                notes.other.append(line)
        seen = len(game.state.entries)
        if game.turn != turn or game.is_over:
            _snapshot(game, notes, noted)
    if verify:
        check_dice(game, rec, source=source)
    if turns and not turns[max(turns)].strength:
        _snapshot(game, turns[max(turns)])
    return GameLog(
        game.scenario.title,
        game_number or rec.start_hash[:8],
        date,
        dict(rec.players),
        game.system.result_lines(game) if game.is_over else ["(the game was not finished)"],
        game.system.form_facts(game),
        [turns[t] for t in sorted(turns)],
        game,
        game.system.score_title,
        game.system.strength_title,
    )


ANALYSIS = ("Players' analysis of opposing strategies and decisive moments, situations and factors in the game:",)


def to_markdown(log: GameLog) -> str:
    out = [
        f"# {log.title}: Game Log and Analysis Form",
        "",
        f"- Game No.: {log.game_number}",
        f"- Date and time: {log.date or '____________'}",
        f"- Players: Axis {log.players.get('axis', '______')}, Allied {log.players.get('allied', '______')}",
        "",
        "## Result",
        "",
    ]
    out += [f"    {line}" for line in log.result_lines]
    for title, facts in log.facts:
        out += ["", f"## {title}", ""] + [f"- {label}: {text}" for label, text in facts]
    out += ["", "## Turn by turn", ""]
    for t in log.turns:
        noted = ", ".join(f"{k}: {v}" for k, v in t.notes.items())
        out.append(f"### Turn {t.turn}{_dated(log.final, t.turn)}" + (f" ({noted})" if noted else ""))
        for side in ("axis", "allied"):
            if t.moves[side]:
                out.append(f"- {side.title()} moves: " + "; ".join(t.moves[side]))
        out += [f"- Battle: {b}" for b in t.battles]
        out += [f"- Lost: {x}" for x in t.losses]
        out += [f"- Supply: {x}" for x in t.supply]
        out += [f"- {x}" for x in t.other]
        if t.strength:
            out.append(
                f"- End of turn: strength Axis {t.strength['axis']}, Allied {t.strength['allied']}; "
                f"out of supply Axis {t.out_of_supply['axis']}, Allied {t.out_of_supply['allied']}"
            )
        out += ["- Notes: ________________________________________________", ""]
    out += ["## Analysis", "", ANALYSIS[0], ""] + ["________________________________________________"] * 8
    return "\n".join(out) + "\n"


def to_html(log: GameLog) -> str:
    md = to_markdown(log).splitlines()
    body: list[str] = []
    in_list = False
    for line in md:
        if line.startswith("- ") and not in_list:
            body.append("<ul>")
            in_list = True
        if not line.startswith("- ") and in_list:
            body.append("</ul>")
            in_list = False
        if line.startswith("### "):
            body.append(f"<h3>{html.escape(line[4:])}</h3>")
        elif line.startswith("## "):
            body.append(f"<h2>{html.escape(line[3:])}</h2>")
        elif line.startswith("# "):
            body.append(f"<h1>{html.escape(line[2:])}</h1>")
        elif line.startswith("- "):
            body.append(f"<li>{html.escape(line[2:])}</li>")
        elif line.startswith("    "):
            body.append(f"<pre>{html.escape(line[4:])}</pre>")
        elif line.strip():
            body.append(f"<p>{html.escape(line)}</p>")
    if in_list:
        body.append("</ul>")
    style = (
        "body{font-family:Georgia,serif;max-width:48em;margin:2em auto;color:#222}"
        "pre{margin:0;font-family:DejaVu Sans Mono,monospace}h3{margin-bottom:.2em}"
        "@media print{h2{page-break-after:avoid}}"
    )
    return (
        f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(log.title)} game log</title>"
        f"<style>{style}</style></head><body>{''.join(body)}</body></html>\n"
    )


def to_pdf(log: GameLog, path: Path) -> None:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_auto_page_break(auto=True, margin=15)
    pdf.add_page()
    for line in to_markdown(log).splitlines():
        text = line.encode("latin-1", "replace").decode("latin-1")
        if line.startswith("# "):
            pdf.set_font("Helvetica", "B", 15)
            pdf.multi_cell(0, 8, text[2:], new_x="LMARGIN", new_y="NEXT")
        elif line.startswith("## "):
            pdf.set_font("Helvetica", "B", 12)
            pdf.multi_cell(0, 7, text[3:], new_x="LMARGIN", new_y="NEXT")
        elif line.startswith("### "):
            pdf.set_font("Helvetica", "B", 10)
            pdf.multi_cell(0, 6, text[4:], new_x="LMARGIN", new_y="NEXT")
        else:
            pdf.set_font("Courier" if line.startswith("    ") else "Helvetica", "", 9)
            pdf.multi_cell(0, 5, text.strip() or " ", new_x="LMARGIN", new_y="NEXT")
    pdf.output(str(path))


def plots(log: GameLog, folder: Path) -> list[Path]:
    """Each side's strength, units out of supply and GVP over the turns, as PNG files."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder.mkdir(parents=True, exist_ok=True)
    turns = [t.turn for t in log.turns if t.strength]
    made = []
    for key, title in (
        ("strength", log.strength_title),
        ("out_of_supply", "Units out of supply"),
        ("gvp", log.score_title),
    ):
        fig, ax = plt.subplots(figsize=(7, 3.2))
        for side, colour in (("axis", "#555b60"), ("allied", "#b08040")):
            ax.plot(turns, [getattr(t, key).get(side, 0) for t in log.turns if t.strength], marker="o", color=colour, label=side.title())
        ax.set_title(title)
        ax.set_xlabel("turn")
        ax.legend()
        ax.grid(alpha=0.3)
        path = folder / f"{key}.png"
        fig.tight_layout()
        fig.savefig(path, dpi=100)
        plt.close(fig)
        made.append(path)
    return made


def turn_maps(log: GameLog, folder: Path) -> list[Path]:
    """The map with the counters at the end of each turn, one SVG per turn."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for t in log.turns:
        if t.map_svg:
            path = folder / f"turn-{t.turn:02d}.svg"
            path.write_text(t.map_svg, encoding="utf-8")
            out.append(path)
    return out
