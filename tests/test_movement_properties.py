"""Property tests: the reach search and move orders agree on random small maps.

Every hex the search offers is accepted by ``play`` (by destination and by the offered path);
every other hex is refused with a rule clause, and a refused order leaves the state untouched.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import movement_game, unit_toml
from tobruk.engine.errors import IllegalOrderError
from tobruk.hexes import Hex, Hexside
from tobruk.mechanics.actions import Move
from tobruk.systems.gazala import moves as mv


@st.composite
def small_positions(draw: st.DrawFn) -> tuple[str, str, int, int]:
    rows, cols = draw(st.integers(2, 4)), draw(st.integers(3, 6))
    hexes = [Hex.from_offset(r, c) for r in range(rows) for c in range(cols)]
    picks = draw(st.permutations(hexes))
    mover, enemies = picks[0], picks[1:1 + draw(st.integers(0, 3))]
    kind = draw(st.sampled_from([("armour", "4-3-4"), ("motorized", "2-3-3"), ("infantry", "2-3-2")]))
    units = unit_toml("M", "axis", mover.label, type_=kind[0], factors=kind[1])
    for i, e in enumerate(enemies):
        units += unit_toml(f"E{i}", "allied", e.label, type_="infantry", factors="1-1-2")
    free = [h for h in hexes if h != mover and h not in enemies]
    sea = draw(st.lists(st.sampled_from(free), max_size=2, unique=True)) if free else []
    land = [h for h in hexes if h not in sea]
    extra = ""
    if sea:
        extra += "[map.terrain]\nsea = [" + ", ".join(f'"{h.label}"' for h in sea) + "]\n"
    # routes: random walks over land
    for _ in range(draw(st.integers(0, 3))):
        start = draw(st.sampled_from(land))
        chain = [start]
        for _ in range(draw(st.integers(1, 6))):
            options = [n for n in chain[-1].neighbours() if n in land and n not in chain]
            if not options:
                break
            chain.append(draw(st.sampled_from(sorted(options))))
        if len(chain) >= 2:
            kind_name = draw(st.sampled_from(["road", "major-track", "minor-track"]))
            extra += f'[[map.route]]\nkind = "{kind_name}"\nhexes = [' + ", ".join(f'"{h.label}"' for h in chain) + "]\n"
    sides = sorted({Hexside.between(h, n) for h in land for n in h.neighbours() if n in land})
    chosen = draw(st.lists(st.sampled_from(sides), max_size=4, unique=True)) if sides else []
    esc, tow = [], []
    for side in chosen:
        a, b = side.hexes
        entry = f'{{ side = "{side.label}", high = "{draw(st.sampled_from([a, b])).label}" }}'
        (tow if draw(st.booleans()) else esc).append(entry)
    if esc or tow:
        extra += "[map.hexsides]\n"
        if esc:
            extra += "escarpment = [" + ", ".join(esc) + "]\n"
        if tow:
            extra += '"towering-escarpment" = [' + ", ".join(tow) + "]\n"
    if draw(st.booleans()) and free:
        extra += f'[map.fortifications]\nallied = ["{draw(st.sampled_from([h for h in free if h not in sea] or [mover])).label}"]\n'
    return units, extra, rows, cols


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions(), st.sampled_from(["clear", "sandstorm", "rainstorm"]), st.booleans())
def test_reach_and_play_agree(position: tuple[str, str, int, int], weather: str, disrupted: bool) -> None:
    units, extra, rows, cols = position
    game = movement_game(units, extra, rows=rows, columns=cols)
    game.vars.weather = weather
    game.unit("M").disrupted = disrupted
    offered = mv.destinations(game, "M")
    start = game.unit("M").hex
    for h in game.scenario.map.hexes:
        if h == start:
            continue
        trial = game.copy()
        before = trial.state_hash()
        if h in offered:
            trial.play(Move("M", (h,)))
            assert trial.unit("M").hex == h
            again = game.copy()
            again.play(Move("M", offered[h].path))
            assert again.unit("M").hex == h
        else:
            try:
                trial.play(Move("M", (h,)))
            except IllegalOrderError as exc:
                assert exc.clause.startswith("GG-")
                assert trial.state_hash() == before
            else:
                raise AssertionError(f"{h} was not offered but the move was accepted")
