"""The legal actions as a face that knows no game offers them: by id, with each action's gesture and fields.

A face that draws what it is sent (the browser page) needs more than notation to offer a decision: how each action
is made (its :class:`~tobruk.engine.actions.Gesture`), the unit and the hex a click picks, a heading to list it
under, and an id to send back.  :func:`offers` gives that for the current decision: one entry per legal action id
(the listing's representative of the id: a move to a hex by the system's own route), and one entry per composite
whole choice the decision opens (the attack, gathered from the units that may join it and the hexes it may be
aimed at).  A face sends back ``{"id": n}`` for an entry, or a composite's fields; it never assembles text.  While a
declaration begun elsewhere is under way, its parts are marked as the composite's too: the only way a face offers to
make one is the whole, gathered on the map with its odds shown first.  What else the declaration's decision offers
while it is made, besides its parts and the way out (:attr:`~tobruk.engine.actions.Action.dropped_by`), are its
options (a leader named, naval support called): :func:`declaration_options` lists those open to a gathered whole,
and the face sends the ones chosen with it.

The composites are found from their parts, as a player makes them at the table: a composite type whose gesture is
``group-target`` names the action that opens it (aimed at a hex), the one each gathered unit is, and the one that
closes it (:attr:`~tobruk.engine.actions.Action.parts`).  While the opening action is legal and no declaration is
under way, each opening is tried on a copy of the game, and the units the rules then let join it are listed with
its hex, with those of them the rules keep apart (each one's join tried in turn: in a sandstorm, GG-VIII.A.3, the units of
different hexes may not attack together).  So the page learns which units may attack which hex, and which together,
from the rules themselves, without a rule of its own.

This is built for people's faces only: the forward model a search uses stays the ids and the mask
(``Game.legal_id_list``, ``Game.legal_mask``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tobruk.engine.actions import HEX, UNIT, Action, Gesture
from tobruk.engine.errors import TobrukError
from tobruk.engine.flow import Node, Step
from tobruk.engine.information import observed

if TYPE_CHECKING:
    from tobruk.engine.game import Game


def entry(action: Action, action_id: int | None, says: str | None = None, heading: str | None = None) -> dict[str, Any]:
    """One action as it is offered: its id, verb, gesture, heading, label (its notation), what it does in words
    (``says``, a button's text: the deciding node's words when given, see :func:`in_context`) and fields (:func:`offers`
    adds a ``warning``, what it would cost later by the rules, see :func:`in_context` and :func:`ending_costs`), with the unit
    and the hex its gesture picks (read from its shape's coordinates), and for an action whose route is chosen hex
    by hex (a retreat: :attr:`Action.stepwise`) its route (the acting side's own unit's way, which its view already
    shows)."""
    out: dict[str, Any] = {
        "id": action_id,
        "verb": action.verb,
        "gesture": action.gesture.value,
        "group": action.group() if heading is None else heading,
        "label": action.notation(),
        "says": action.says() if says is None else says,
        "fields": action.fields(),
    }
    if action.stepwise:
        out["route"] = [h.label for h in action.route()]
    key = action.key()
    kinds = [d.kind for d in action.shape]
    if action.gesture in (Gesture.UNIT, Gesture.UNIT_HEX) and kinds[:1] == ["unit"]:
        out["unit"] = key[0]
    if action.gesture is Gesture.HEX and kinds[:1] == ["hex"]:
        out["hex"] = key[0].label
    if action.gesture is Gesture.UNIT_HEX and kinds[1:2] == ["hex"]:
        out["hex"] = key[1].label
    return out


def offers(game: Game) -> dict[str, Any]:
    """The current decision's legal actions as entries (:func:`entry`, in the listing's order, one per id) and the
    composite choices it opens (see the module's text): ``{"actions": [...], "composites": [...]}``."""
    if game.decision is None:
        return {"actions": [], "composites": []}
    by_id = game.legal_ids()
    said, heads, warned = in_context(game, list(by_id.values()))
    actions = [entry(a, i, says, head) for (i, a), says, head in zip(by_id.items(), said, heads, strict=True)]
    for e, warning in zip(actions, warned, strict=True):
        if warning:
            e["warning"] = warning
    if any(a.ends_step for a in by_id.values()):
        costs = ending_costs(game)
        for e, a in zip(actions, by_id.values(), strict=True):
            if a.ends_step and costs:
                e["warning"] = costs
    composites = []
    kinds = {type(a) for a in by_id.values()}
    for kind in game.system.vocabulary:
        if not kind.composite or kind.gesture is not Gesture.GROUP_TARGET or len(kind.parts) != 3:
            continue
        opener, member, closer = kind.parts
        if member in kinds or closer in kinds:
            # a declaration of it under way (begun elsewhere: the page sends the whole): its parts are not offered
            # one by one, where no odds are shown; the player drops it (or undoes) and gathers it again on the map
            for e in actions:
                if e["verb"] in (opener.verb, member.verb, closer.verb):
                    e["part_of"] = kind.verb
            continue
        if opener not in kinds:
            continue  # not open now
        targets = _targets(game, [(i, a) for i, a in by_id.items() if type(a) is opener], member)
        if not targets:
            continue
        for e in actions:
            if e["verb"] == opener.verb:
                e["part_of"] = kind.verb
        units_field, hexes_field = kind.gathers
        composites.append(
            {
                "verb": kind.verb,
                "gesture": kind.gesture.value,
                "group": kind.verb,
                "label": kind.verb,
                "says": f"{kind.verb.capitalize()}: gather the units on the map, then click the target",
                "fields": {"verb": kind.verb},
                "gather": units_field,
                "target": hexes_field,
                "targets": targets,
            }
        )
    return {"actions": actions, "composites": composites}


def _targets(game: Game, openers: list[tuple[int, Action]], member: type[Action]) -> list[dict[str, Any]]:
    """Each opening action tried on a copy of the game: its hex, its id and the units the rules then let join (the
    ``member`` actions listed after it), for the openings some unit may join, with the units kept ``apart`` (:func:`_apart`)."""
    probe = game.copy()
    out = []
    for i, opening in openers:
        if opening.shape[:1] != (HEX,):
            continue
        try:
            probe.play(opening)
        except TobrukError:
            continue
        joins: dict[Any, Action] = {}  # (each unit's first join listed)
        for a in probe.legal_orders():
            if type(a) is member and member.shape[:1] == (UNIT,):
                joins.setdefault(a.key()[0], a)
        units = list(joins)
        apart = _apart(probe, member, joins) if len(units) > 1 else {}
        try:
            probe.pop()
        except TobrukError:
            probe = game.copy()
        if units:
            out.append({"hex": opening.key()[0].label, "id": i, "units": units} | ({"apart": apart} if apart else {}))
    return out


def _apart(probe: Game, member: type[Action], joins: dict[Any, Action]) -> dict[str, list[str]]:
    """Which of the units that may join an attack may not join it together (in a sandstorm those of different
    hexes, GG-VIII.A.3): each unit's join tried on the probe, with the units the rules still let join after it; a unit
    missing from those is kept apart from it.  Only the units some other is kept apart from are named, so an attack
    any of whose units may combine has none, and a face lights only the targets the units gathered may attack."""
    out: dict[str, list[str]] = {}
    for uid, join in joins.items():
        probe.play(join)
        still = {a.key()[0] for a in probe.legal_orders() if type(a) is member}
        probe.pop()
        barred = [str(u) for u in joins if u != uid and u not in still]
        if barred:
            out[str(uid)] = barred
    return out


def declaration_options(game: Game, action: Action, options: Sequence[Action] = ()) -> list[dict[str, Any]]:
    """The options a composite whole choice may still be made with, ``options`` chosen already: the actions its
    decision offers once its parts but the last and ``options`` are played on a copy of the game, that are neither
    its parts nor its way out, each as its verb, fields and words (no id: a face sends them back as fields, with the
    whole).  Refused as playing them would be (an option that is not open, or a whole the rules refuse)."""
    if not action.composite:
        return []
    probe = game.copy()
    for part in action.with_options(options)[:-1]:
        probe.play(part)
    skip = (*type(action).parts, *type(action).dropped_by)
    offered = [a for a in probe.legal_orders() if not isinstance(a, skip)]
    return [{"verb": a.verb, "fields": a.fields(), "says": a.says()} for a in offered]


def in_context(game: Game, actions: Sequence[Action]) -> tuple[list[str], list[str], list[str]]:
    """What each of ``actions`` (legal now) does in words, the heading it is listed under and what it would cost later
    by the rules, as the deciding node gives them in context (:meth:`~tobruk.engine.flow.Node.says`,
    :meth:`~tobruk.engine.flow.Node.heading`, :meth:`~tobruk.engine.flow.Node.warns`: which unit acts, what it risks,
    a move into a hex it would over-stack), asked of the position as the deciding side knows it, so two positions it
    cannot tell apart are offered alike; each action's own words and group, and no warning, where the node gives none
    of its own.  That position is made once for all three, and not at all when the node gives nothing of its own."""
    d = game.decision
    kind = type(game.node)
    says, heads, warns = kind.says is not Node.says, kind.heading is not Node.heading, kind.warns is not Node.warns
    if d is None or not (says or heads or warns):
        return [a.says() for a in actions], [a.group() for a in actions], ["" for _ in actions]
    known = observed(game, d.side)
    decision = known.decision
    assert decision is not None  # (the side knows it is asked, and what)
    node = known.node
    return (
        [node.says(known, decision, a) for a in actions] if says else [a.says() for a in actions],
        [node.heading(known, decision, a) for a in actions] if heads else [a.group() for a in actions],
        [node.warns(known, decision, a) for a in actions] if warns else ["" for _ in actions],
    )


def ending_costs(game: Game) -> str:
    """What ending the current step would cost its decider (:meth:`~tobruk.engine.flow.Step.ending_costs`), from the
    position as that side knows it; "" inside a nested decision (a declaration, a retreat), which the step's end
    does not follow."""
    d = game.decision
    if d is None or game.node is not game.step or type(game.step).ending_costs is Step.ending_costs:
        return ""  # (a step that costs nothing to end: the position as the side knows it is not made)
    known = observed(game, d.side)
    return known.step.ending_costs(known, d.side)
