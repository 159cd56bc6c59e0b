"""The shapes of what a client may send, checked strictly before anything runs (msgspec).

msgspec rather than pydantic: it decodes and checks in one pass straight from the request bytes, never
converts a value of the wrong type (a seed "3" or 3.0 is refused, not read as 3; pydantic's lax mode
converts), refuses unknown fields, and its error messages name the field and the expected type without
quoting the whole input.  Every text a client sends is printable ASCII of bounded length, so digits that
are not ASCII (superscripts, Arabic-Indic) never reach the parsers, which would read some of them as
numbers; an uploaded game record goes through the same kind of schema (:class:`UploadedRecord`), so its orders
are held to the same rule as an order sent on its own.  A list of options may not name one twice (the game
would read it as a set, but the database would keep both).  A refusal is one line (:func:`reason`) quoting at
most a short excerpt of the input.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal, TypeVar

import msgspec

ASCII_LINE = r"^[ -~]*$"  # printable ASCII, one line
MAX_SEED = 2**53 - 1  # a seed a browser's JavaScript can write exactly
MAX_VERSION = 2**31 - 1

Name = Annotated[str, msgspec.Meta(min_length=1, max_length=100, pattern=r"^[A-Za-z0-9][A-Za-z0-9_-]*$")]
OptionName = Annotated[str, msgspec.Meta(min_length=1, max_length=60, pattern=r"^[A-Za-z0-9][A-Za-z0-9_-]*$")]
OrderText = Annotated[str, msgspec.Meta(min_length=1, max_length=200, pattern=ASCII_LINE)]
Version = Annotated[int, msgspec.Meta(ge=0, le=MAX_VERSION)]
Seed = Annotated[int, msgspec.Meta(ge=0, le=MAX_SEED)]
ActionId = Annotated[int, msgspec.Meta(ge=0, le=MAX_VERSION)]
# an action's fields (tobruk.engine.actions.Action.fields): a verb and a few coordinates, each a word, a number, a flag,
# nothing, or a list of words or numbers (or of pairs of them); the vocabulary checks each field, its name, type, length
# and characters (Vocabulary.from_fields).  Plain types on purpose: msgspec 0.22 crashes in the garbage collector, now and
# then at exit, when constrained (Annotated) types sit inside these unions and are decoded both here and in a struct.
FieldValue = str | int | bool | None | list[str | int | list[str | int]]
Fields = Annotated[dict[str, FieldValue], msgspec.Meta(max_length=16)]
# the options a whole choice is made with, each an action's fields (Action.with_options: a leader named, naval support)
WithOptions = Annotated[list[Fields], msgspec.Meta(max_length=8)]
SideName = Literal["axis", "allied"]
SeatSide = Literal["axis", "allied", "both"]
Options = Annotated[list[OptionName], msgspec.Meta(max_length=20)]
RecordText = Annotated[str, msgspec.Meta(max_length=200, pattern=ASCII_LINE)]  # hashes, digests
RollPurpose = Annotated[str, msgspec.Meta(max_length=200, pattern=r"^[^\x00-\x1f\x7f]*$")]  # read by people, never parsed


class NewGame(msgspec.Struct, forbid_unknown_fields=True):
    """``POST /api/games``.  ``seed``: only a game against the computer may choose it (docs/security.md)."""

    scenario: Name | None = None  # the first scenario listed when not given
    mode: Literal["hotseat", "computer", "remote"] = "hotseat"
    options: Options = msgspec.field(default_factory=list)
    computer: Name = "greedy"
    human_side: SideName = "axis"
    seed: Seed | None = None


class PlayOrder(msgspec.Struct, forbid_unknown_fields=True):
    """``POST .../order``: one action and the version of the position the sender saw.  The action is one of: ``id``,
    a legal action's id as the state lists it (the page's way); ``action``, an action's fields (a composite choice
    the page gathered, such as an attack); ``order``, the notation a person or a script typed."""

    version: Version
    order: OrderText | None = None
    id: ActionId | None = None
    action: Fields | None = None
    options: WithOptions | None = None  # with ``action`` only: the options it is made with (a leader, naval support)

    def check(self) -> None:
        if sum(x is not None for x in (self.order, self.id, self.action)) != 1:
            raise BadRequest("bad request: give exactly one of order, id and action")
        if self.options is not None and self.action is None:
            raise BadRequest("bad request: options come with an action's fields")


class Undo(msgspec.Struct, forbid_unknown_fields=True):
    """``POST .../undo``."""

    version: Version


class SetWebhook(msgspec.Struct, forbid_unknown_fields=True):
    """``PUT .../webhook``: the URL to tell when the decision passes to the seat (``null``: none)."""

    url: Annotated[str, msgspec.Meta(min_length=1, max_length=500, pattern=ASCII_LINE)] | None


class Empty(msgspec.Struct, forbid_unknown_fields=True):
    """A request that takes no fields (``POST .../rematch``)."""


class SideQuery(msgspec.Struct, forbid_unknown_fields=True):
    """``?side=`` of the state, export and replay requests."""

    side: SeatSide | None = None


class ReplayQuery(msgspec.Struct, forbid_unknown_fields=True):
    """``?side=`` and ``?by=`` of the replay request: a frame at the end of each game-turn (``turn``, the default) or
    after each action that changed what the side sees (``action``)."""

    side: SeatSide | None = None
    by: Literal["turn", "action"] = "turn"


class OrderQuery(msgspec.Struct, forbid_unknown_fields=True):
    """``?id=``, ``?action=`` or ``?order=`` of the odds and path requests: a legal action's id, an action's fields as
    JSON text, or the notation a person typed (exactly one)."""

    order: OrderText | None = None
    id: Annotated[str, msgspec.Meta(pattern=r"^[0-9]{1,9}$")] | None = None
    action: Annotated[str, msgspec.Meta(max_length=2000, pattern=ASCII_LINE)] | None = None
    options: Annotated[str, msgspec.Meta(max_length=2000, pattern=ASCII_LINE)] | None = None  # JSON: WithOptions

    def check(self) -> None:
        if sum(x is not None for x in (self.order, self.id, self.action)) != 1:
            raise BadRequest("bad request: give exactly one of the parameters order, id and action")
        if self.options is not None and self.action is None:
            raise BadRequest("bad request: the parameter options comes with the parameter action")

    def fields(self) -> Fields | None:
        """The ``action`` parameter's fields (checked as a body's are)."""
        return None if self.action is None else _decoded(_FIELDS, self.action, "action")

    def with_options(self) -> list[dict[str, FieldValue]]:
        """The ``options`` parameter's list of fields (checked as a body's are); none when not given."""
        return [] if self.options is None else _decoded(_OPTIONS, self.options, "options")


# (made once: a query's fields are decoded at every hover)
_FIELDS = msgspec.json.Decoder(Fields, strict=True)
_OPTIONS = msgspec.json.Decoder(WithOptions, strict=True)


def _decoded(decoder: msgspec.json.Decoder[T], text: str, name: str) -> T:
    """A query parameter's JSON, checked by ``decoder``: a 400 naming the parameter if it is not JSON or not right."""
    try:
        return decoder.decode(text)
    except msgspec.ValidationError as exc:
        raise BadRequest(f"bad request: parameter {name}: {reason(str(exc))}") from None
    except msgspec.DecodeError as exc:
        raise BadRequest(f"bad request: parameter {name} is not JSON ({reason(str(exc))})") from None


class RecordedOrder(msgspec.Struct, forbid_unknown_fields=True):
    """One order of an uploaded record and the state hash after it."""

    order: OrderText
    hash: RecordText


class UploadedRecord(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """``POST /api/replays``: a game record as ``tobruk.record`` writes it (docs/record-format.md).  The seed's
    range (up to 2**128 - 1) is checked by the handler: msgspec bounds only 64-bit integers."""

    format: Literal["tobruk-record"]
    version: Literal[1]
    scenario: Name
    scenario_digest: RecordText
    seed: int
    options: Options
    players: dict[SideName, Name] = msgspec.field(default_factory=dict)
    start_hash: RecordText
    orders: list[RecordedOrder]
    dice: list[tuple[RollPurpose, int]] = msgspec.field(default_factory=list)


class BadRequest(Exception):
    """A request that does not have the expected shape: answered 400 with :attr:`reason`."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


T = TypeVar("T")
_QUOTED = re.compile(r"('[^']*'|`[^`]*`)")


def reason(message: str, limit: int = 160) -> str:
    """A decoder's message as one short line: quoted input cut to a few characters, the whole bounded."""

    def cut(m: re.Match[str]) -> str:
        text = m.group(0)
        return text if len(text) <= 26 else text[:24] + "..." + text[-1]

    line = _QUOTED.sub(cut, " ".join(message.split()))
    return line if len(line) <= limit else line[: limit - 3] + "..."


def decode_body(body: bytes, kind: type[T]) -> T:
    """The request body as ``kind``; an empty body counts as ``{}``."""
    try:
        return msgspec.json.decode(body or b"{}", type=kind, strict=True)
    except msgspec.ValidationError as exc:
        raise BadRequest(f"bad request: {reason(str(exc))}") from None
    except (msgspec.DecodeError, UnicodeDecodeError) as exc:
        raise BadRequest(f"bad request: the body is not JSON in UTF-8 ({reason(str(exc))})") from None


def no_repeats(names: list[str], refusal: str) -> None:
    """Refuse a list that names something twice (:class:`BadRequest`: ``refusal`` and the name)."""
    seen: set[str] = set()
    for name in names:
        if name in seen:
            raise BadRequest(f"{refusal} {reason(repr(name))} is given twice")
        seen.add(name)


def decode_upload(data: object) -> UploadedRecord:
    """A JSON document (already parsed) as an uploaded record; a refusal names the field (``upload: orders[3].order``)."""
    try:
        rec = msgspec.convert(data, type=UploadedRecord, strict=True)
    except msgspec.ValidationError as exc:
        message, _, where = str(exc).rpartition(" - at `$")
        field = where.rstrip("`").lstrip(".") or "(top level)"
        raise BadRequest(f"not a valid game record: upload: {reason(field, 40)}: {reason(message or str(exc), 140)}") from None
    no_repeats(rec.options, "not a valid game record: upload: options: the option")
    return rec


def decode_query(params: dict[str, str], kind: type[T]) -> T:
    """Query parameters as ``kind`` (every value is text; none may repeat)."""
    try:
        return msgspec.convert(params, type=kind, strict=True)
    except msgspec.ValidationError as exc:
        raise BadRequest(f"bad request: {reason(str(exc).replace('$.', 'parameter '))}") from None
