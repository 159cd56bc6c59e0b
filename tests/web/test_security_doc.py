"""docs/security.md says what the dice code does (issue 35: it described a Mersenne Twister with rejection sampling
while the code is a keyed BLAKE2b counter reduced modulo 6).  The document's formula is written out here from the
document, not from the code, and compared with the dice; its bias figures are counted exactly."""

from __future__ import annotations

import hashlib
from fractions import Fraction
from pathlib import Path

from tobruk.engine.dice import Dice

DOC = (Path(__file__).resolve().parents[2] / "docs" / "security.md").read_text(encoding="utf-8")


def documented_roll(seed: int, k: int) -> int:
    key = hashlib.sha256(f"tobruk-dice:{seed}".encode()).digest()[:32]
    digest = hashlib.blake2b(k.to_bytes(8, "little"), key=key, digest_size=8).digest()
    return 1 + int.from_bytes(digest, "little") % 6


def test_the_document_names_the_generator_the_code_uses() -> None:
    assert "Mersenne" not in DOC and "rejection sampling" not in DOC
    assert "BLAKE2b" in DOC and "mod 6" in DOC


def test_the_dice_are_the_documented_formula() -> None:
    for seed in (0, 1, 42, 2**127 + 12345):
        dice = Dice(seed)
        rolls = [dice.roll("test") for _ in range(300)]
        assert rolls == [documented_roll(seed, k) for k in range(300)]


def test_the_documented_bias_bound() -> None:
    n = 2**64
    preimages = {face: n // 6 + (1 if face - 1 < n % 6 else 0) for face in range(1, 7)}  # faces 1-4 one more
    assert sum(preimages.values()) == n and n % 6 == 4
    p = {face: Fraction(c, n) for face, c in preimages.items()}
    assert all(p[f] == Fraction(1, 6) + Fraction(1, 3 * n) for f in (1, 2, 3, 4))
    assert all(p[f] == Fraction(1, 6) - Fraction(2, 3 * n) for f in (5, 6))
    assert max(abs(q - Fraction(1, 6)) for q in p.values()) == Fraction(2, 3 * n)
    assert sum(abs(q - Fraction(1, 6)) for q in p.values()) / 2 == Fraction(4, 3 * n)
    assert "2/(3 · 2^64)" in DOC and "4/(3 · 2^64)" in DOC
