"""The hints of a syntax error: what the player typed, and what Game Courier text means it.

A hint names the notation it recognises (SAN, PGN movetext and drops, ``x``, ``=Q``,
``O-O``, ``+``/``#``, ``#`` comment lines, UCI, a missing hyphen, a dash that only looks
like one, two plies on a line, a bad square) and,
where it can, shows the ply rewritten as Game Courier text. The rule every hint keeps
(issue 19.5): **text a hint shows as a way to write a move is text the judge accepts** --
typed in the same position, it parses and is judged legal whenever the move the player
meant is legal. So a hint never shows a form the rules forbid: no castling (Pocket
Mutation Chess has none), no promotion on arrival (a Pawn reaching rank 8 stays a Pawn
until it is pocketed from there), no mutation into another class.

Conventions, which tests/notation/test_hint_examples.py checks on every hint path:

* the rewrite of the player's own ply follows the word ``write``: ``write 'P e4-d5'``;
* any other quoted text that is Game Courier text (a later ply, the other side's form, a
  comment, a tag) is also legal where the hint says it goes;
* pocket squares are those of the preset in use (``i1``/``i8`` or ``p1``/``p8``);
* an upper-case letter in a PGN-style drop or pocketing (``I@c4``, ``Rh1@=I``) may be
  either side's (gcadj's PGN writes drops in upper case for both), so such hints give
  both sides' forms; in Game Courier text the case of a label is its colour.

The parser knows no position, so a hint never depends on one: the same bad ply gets the
same hint wherever it stands.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from gcadj.notation.language import BOARD_FILES, square_pattern, submove_patterns
from gcadj.notation.lexicon import (
    CASTLING_MOVE,
    LINE_SPACE,
    LINE_SPACE_CLASS,
    LOOSE_MARKS,
    MOVE_NUMBER,
    promotion_suffix,
)
from gcadj.vocabulary import (
    PocketFile,
    Result,
    is_pocket_letter,
    is_preset_file,
    presets_in_words,
)

# A rewritten ply longer than this is not shown: a hint is one line, and a ply line may be
# megabytes long.
EXAMPLE_LIMIT: Final = 120

_WS = f"{LINE_SPACE_CLASS}*"
_ANY_SQUARE = "[a-z][0-9]"
# Castling and SAN as people type them: the reader's shapes (`gcadj.notation.lexicon`), in
# either case, with any marks after them.
_CASTLING = re.compile(rf"{CASTLING_MOVE}{LOOSE_MARKS}", re.IGNORECASE)
_SAN = re.compile(
    rf"[KQRBNP]?[a-h]?[1-8]?[x:]?[a-h][1-8](?:{promotion_suffix('[QRBN]')})?{LOOSE_MARKS}"
)
_X_CAPTURE = re.compile(rf"(?:([A-Za-z]){_WS})?({_ANY_SQUARE}){_WS}[x:]{_WS}({_ANY_SQUARE})")
_UCI = re.compile(r"([a-z][0-9])([a-z][0-9])[qrbn]?")
_MOVE_NUMBER_INSIDE = re.compile(rf"(?:^|\s){MOVE_NUMBER}(?=\s|[A-Za-z]|$)")
_SPACED_MOVE = re.compile(r"([A-Za-z])\s+([a-z][0-9])\s+([a-z][0-9])")
# gcadj's own SAN for pocket moves, typed into a log: a drop "I@c4" (also "I@-c4",
# "I @ c4"), a pocketing "Rh1@" or "Rh1@=I".
_SAN_DROP = re.compile(rf"([A-Za-z]){_WS}@{_WS}-?{_WS}([a-h][1-8])")
_SAN_POCKETING = re.compile(rf"([A-Za-z])?([a-h][1-8])@(?:=([A-Za-z]))?{LOOSE_MARKS}")
# A move with a promotion suffix, Game Courier style ("P e7-e8=Q", "R h1-i1=I") or SAN
# ("e8=Q", "exd8=N").
_SUFFIXED_MOVE = re.compile(
    rf"(?:([A-Za-z]){_WS})?({_ANY_SQUARE}){_WS}-{_WS}({_ANY_SQUARE}){_WS}={_WS}([A-Za-z])?"
)
_SAN_PROMOTION = re.compile(
    rf"([a-h])?[x:]?([a-h])([18]){promotion_suffix('([A-Za-z])')}{LOOSE_MARKS}"
)
# A label and a square with the '-' between them missing ("I i1" for "I-i1").
_LABEL_SPACE_SQUARE = re.compile(rf"{_WS}([A-Za-z]){LINE_SPACE_CLASS}+({_ANY_SQUARE}){_WS}")
_TAG_LIKE = re.compile(r"([A-Za-z][A-Za-z0-9_]*)\s*[:=]\s*(\S.*)")
# Dashes that are not Game Courier's '-', as web pages and word processors write them: their
# names, for the hint.
_DASHES: Final = {
    "\u2010": "a hyphen (U+2010)",
    "\u2011": "a non-breaking hyphen",
    "\u2012": "a figure dash",
    "\u2013": "an en dash",
    "\u2014": "an em dash",
    "\u2212": "a minus sign",
}


def words(text: str) -> Iterator[str]:
    """The words of a ply, one at a time (a ply line may be megabytes long)."""
    return (found.group() for found in re.finditer(r"[^\s;]+", text))


def is_game_courier_ply(text: str, pocket_file: PocketFile) -> bool:
    """Is `text` sub-moves the grammar reads (what a hint may show as a rewrite)?"""
    parts = [part for part in text.split(";") if part.strip(LINE_SPACE)]
    patterns = submove_patterns(pocket_file)
    return bool(parts) and all(any(p.fullmatch(part) for p in patterns) for part in parts)


# A FEN (gcadj's, with its pockets in brackets, or chess's): eight ranks, then perhaps the
# side to move and the rest.
_POSITION: Final = re.compile(
    r"[1-9A-Za-z]{1,9}(?:/[1-9A-Za-z]{1,9}){7}(?:\[[A-Za-z]*\])?(?:\s+[wbWB](?:\s.*)?)?"
)


def _rewritten(text: str, pocket_file: PocketFile) -> str | None:
    """`text` tidied, if it is short Game Courier text worth showing; else None."""
    text = " ".join(text.split())
    if len(text) > EXAMPLE_LIMIT or not is_game_courier_ply(text, pocket_file):
        return None
    return text


def _write(example: str | None) -> str:
    return f": write '{example}'" if example else ""


def _pocket(white: bool, pocket_file: PocketFile) -> str:
    return f"{pocket_file}{'1' if white else '8'}"


def _cased(letter: str, white: bool) -> str:
    return letter.upper() if white else letter.lower()


def _pocketing(
    label: str | None, origin: str, letter: str | None, white: bool, pocket_file: PocketFile
) -> tuple[str | None, str]:
    """The pocketing of the piece on `origin` into `white`'s pocket, becoming `letter`.

    Returns (the Game Courier text or None, a note on the rule when the asked-for piece is
    not allowed). The rule (docs/rules.md §3): from ranks 1-7 a piece may mutate within
    its class; from its rank 8 it must promote to the next class; the King never goes.
    """
    from gcadj.engine.pieces import KIND, mutation_choices, promotion_choices

    pocket = _pocket(white, pocket_file)
    kind = KIND.get(label.upper()) if label else None
    if kind is not None and kind.is_king:
        return None, "; the King is never pocketed"
    wanted = KIND.get(letter.upper()) if letter else None
    if wanted is not None and wanted.is_king:
        return None, "; nothing becomes a King"
    if origin[0] not in BOARD_FILES or not "1" <= origin[1] <= "8":
        return None, ""
    rank = int(origin[1]) if white else 9 - int(origin[1])
    moved = f"{label} {origin}-{pocket}" if label else f"{origin}-{pocket}"
    if kind is None:  # no label: the piece is unknown, so is its class
        if wanted is None:
            return moved, ""
        return f"{moved}; {_cased(wanted.letter, white)}-{pocket}", ""
    choices = promotion_choices(kind) if rank == 8 else mutation_choices(kind)
    names = ", ".join(f"{c.letter} ({c.name})" for c in choices)
    how = "must promote to" if rank == 8 else "may become"
    rule = f"; a {kind.name} pocketed from its rank {rank} {how} {names} only"
    if wanted is None:  # kept as it is, unless it must promote
        chosen, note = (kind, "") if kind in choices else (choices[0], rule)
    elif wanted in choices:
        chosen, note = wanted, ""
    else:
        chosen, note = next((c for c in choices if c is not kind), choices[0]), rule
    if chosen is kind:
        return moved, note
    return f"{moved}; {_cased(chosen.letter, white)}-{pocket}", note


def _side_of(label: str | None, target: str, pocket_file: PocketFile) -> bool | None:
    """White (True), Black (False) or unknown, from a label's case or the target square."""
    if target[0] == pocket_file and target[1] in "18":
        return target[1] == "1"
    if label:
        return label.isupper()
    if target[1] in "18":  # a pawn-like move to a last rank
        return target[1] == "8"
    return None


def _later_promotion(white: bool, square: str, pocket_file: PocketFile) -> str:
    """How a Pawn standing on its rank 8 is promoted: by pocketing it, in a later turn."""
    pocket = _pocket(white, pocket_file)
    pawn, bishop = _cased("P", white), _cased("B", white)
    return (
        f"; it stays a Pawn on {square}, and a later turn may pocket it from there, which "
        f"promotes it to a Bishop or a Knight: '{pawn} {square}-{pocket}; {bishop}-{pocket}'"
    )


def _suffix_hint(ply_text: str, word: str, pocket_file: PocketFile) -> str | None:
    """'=Q' and the like: a pocketing with mutation, or a promotion on arrival."""
    head = "Game Courier has no '=Q' promotion suffix"
    found = _SUFFIXED_MOVE.search(ply_text) if len(ply_text) <= EXAMPLE_LIMIT else None
    if found is not None:
        label, origin, target, letter = found.groups()
        square = re.compile(square_pattern(pocket_file))
        if not (square.fullmatch(origin) and square.fullmatch(target)):
            return None  # the bad square is the first thing to say (`bad_square_hint`)
        white = _side_of(label, target, pocket_file)
        moved = f"{label} {origin}-{target}" if label else f"{origin}-{target}"
        if target[0] == pocket_file and white is not None:
            rewrite, note = _pocketing(label, origin, letter, white, pocket_file)
            if rewrite is None:
                return head + note
            example = _rewritten(
                ply_text[: found.start()] + rewrite + ply_text[found.end() :], pocket_file
            )
            return (
                f"{head}: a piece changes as it is pocketed, by a second sub-move that puts "
                f"the new piece on the pocket square{_write(example)}{note}"
            )
        example = _rewritten(
            ply_text[: found.start()] + moved + ply_text[found.end() :], pocket_file
        )
        later = ""
        if white is not None and target[1] == ("8" if white else "1") and (label or "P") in "Pp":
            later = _later_promotion(white, target, pocket_file)
        return (
            f"{head}, and in Pocket Mutation Chess nothing promotes on arrival"
            f"{_write(example)}{later}"
        )
    san = _SAN_PROMOTION.fullmatch(word)
    if san is not None:
        from_file, to_file, rank, _ = san.groups()
        white = rank == "8"
        origin = f"{from_file or to_file}{'7' if white else '2'}"
        example = f"{_cased('P', white)} {origin}-{to_file}{rank}"
        return (
            f"{head}, and in Pocket Mutation Chess a Pawn reaching rank 8 stays a Pawn"
            f"{_write(example)}{_later_promotion(white, to_file + rank, pocket_file)}"
        )
    return (
        f"{head}, and in Pocket Mutation Chess nothing promotes on arrival: a piece changes "
        f"only as it is pocketed, by a second sub-move that puts the new piece on the "
        f"pocket square ({pocket_file}1 or {pocket_file}8)"
    )


def _san_pocket_move_hint(ply_text: str, word: str, pocket_file: PocketFile) -> str | None:
    """gcadj's PGN notation for drops (``I@c4``) and pocketings (``Rh1@=I``) in a log."""
    short = ply_text.strip(LINE_SPACE)
    pocketing = _SAN_POCKETING.fullmatch(word)
    if pocketing is not None and len(short) <= EXAMPLE_LIMIT:
        label, origin, letter = pocketing.groups()
        sides = (False,) if (label or letter or "A").islower() else (True, False)
        forms = [
            _pocketing(label and _cased(label, white), origin, letter, white, pocket_file)
            for white in sides
        ]
        examples = [form for form, _ in forms if form is not None]
        if not examples:
            return f"this is a pocketing as gcadj's PGN writes it{forms[0][1]}"
        other = f" (Black: '{examples[1]}')" if len(examples) > 1 else ""
        return (
            "this is a pocketing as gcadj's PGN writes it; Game Courier moves the piece "
            f"to the pocket square{_write(examples[0])}{other}{forms[0][1]}"
        )
    # The whole ply for the spaced forms ("I @ c4"); in a long ply, the word at the error.
    drop = _SAN_DROP.search(short if len(short) <= EXAMPLE_LIMIT else word[:EXAMPLE_LIMIT])
    if drop is None:
        return None
    letter, target = drop.groups()
    black = f"{letter.lower()} {_pocket(False, pocket_file)}-{target}"
    if letter.islower():
        example, other = black, ""
    else:
        example = f"{letter} {_pocket(True, pocket_file)}-{target}"
        other = f" (Black, from {_pocket(False, pocket_file)}: '{black}')"
    return (
        "this is a drop as PGN writes it; Game Courier moves the piece out of the pocket "
        f"({pocket_file}1 is White's, {pocket_file}8 Black's){_write(example)}{other}"
    )


def _missing_hyphen_hint(ply_text: str, pocket_file: PocketFile) -> str | None:
    """``R h1-i1; I i1``: a label and the pocket square after a pocketing, meant as ``I-i1``.

    Only after a sub-move that pockets a piece: that is the one place where putting a new
    piece on the pocket square is legal (a mutation or promotion), and the new piece is
    checked against the rule as for ``=I``.
    """
    if len(ply_text) > EXAMPLE_LIMIT:
        return None
    parts = ply_text.split(";")
    for index in range(1, len(parts)):
        found = _LABEL_SPACE_SQUARE.fullmatch(parts[index])
        if found is None:
            continue
        letter, pocket = found.groups()
        moved = submove_patterns(pocket_file)[0].fullmatch(parts[index - 1])
        if moved is None or moved[3] != pocket or pocket[0] != pocket_file:
            continue
        rewrite, note = _pocketing(moved[1], moved[2], letter, pocket[1] == "1", pocket_file)
        head = "a new piece is put on the pocket square with '-' between its label and the square"
        if rewrite is None:
            return head + note
        parts[index - 1 : index + 1] = [rewrite]
        example = _rewritten(
            "; ".join(p.strip(LINE_SPACE) for p in parts if p.strip(LINE_SPACE)), pocket_file
        )
        return head + _write(example) + note
    return None


def _hash_hint(ply_text: str, pocket_file: PocketFile) -> str | None:
    """``#`` lines and ``#`` comments: Game Courier comments start with ``//``."""
    at = ply_text.find("#")
    if at < 0:
        return None
    before, after = ply_text[:at], ply_text[at:].lstrip("#").strip(LINE_SPACE)
    if before.strip(LINE_SPACE):
        if not after or not before[-1:].isspace():
            return None  # a mate mark after a move
        example = _rewritten(before, pocket_file)
        if example is None or len(after) > EXAMPLE_LIMIT:
            return "'#' does not start a comment in Game Courier text; a comment starts with '//'"
        return f"'#' does not start a comment in Game Courier text; write '{example} // {after}'"
    if len(after) > EXAMPLE_LIMIT:
        return "'#' does not start a comment in Game Courier text; a comment starts with '//'"
    comment = f"// {after}" if after else "//"
    hint = f"'#' does not start a comment in Game Courier text; write '{comment}'"
    tag = _TAG_LIKE.fullmatch(after)
    if tag is not None:
        value = tag[2].strip().replace("\\", "\\\\").replace('"', '\\"')
        hint += f", or before the first ply a tag: '[{tag[1]} \"{value}\"]'"
    return hint


def _dash_hint(ply_text: str, pocket_file: PocketFile) -> str | None:
    """A dash that only looks like '-' (``P e2–e4``, pasted from a forum)."""
    dash = next((char for char in ply_text if char in _DASHES), None)
    if dash is None:
        return None
    fixed = "".join("-" if char in _DASHES else char for char in ply_text)
    example = _rewritten(fixed, pocket_file) if len(ply_text) <= EXAMPLE_LIMIT else None
    return (
        f"'{dash}' is {_DASHES[dash]}, as web pages and word processors write it, not "
        f"Game Courier's '-'{_write(example)}"
    )


def _two_plies_hint(ply_text: str, pocket_file: PocketFile) -> str | None:
    """Two plies typed on one line (``P e2-e4 p e7-e5``): one ply per line."""
    if len(ply_text) > EXAMPLE_LIMIT or ";" in ply_text:
        return None
    for gap in re.finditer(rf"{LINE_SPACE_CLASS}+", ply_text.strip(LINE_SPACE)):
        text = ply_text.strip(LINE_SPACE)
        first, second = text[: gap.start()], text[gap.end() :]
        if is_game_courier_ply(first, pocket_file) and is_game_courier_ply(second, pocket_file):
            return (
                f"Game Courier takes one ply per line: write '{first}', and '{second}' on "
                "the next line (the sub-moves of one ply are joined by ';')"
            )
    return None


def _uci_hint(ply_text: str, word: str, pocket_file: PocketFile) -> str | None:
    """Two squares without '-' (``P e2e4``, ``g1f3``): the ply with '-' put between them,
    its label kept."""
    uci = _UCI.fullmatch(word)
    if uci is None:
        return None
    example = f"{uci[1]}-{uci[2]}"
    if len(ply_text) <= EXAMPLE_LIMIT:
        example = _rewritten(ply_text.replace(word, example, 1), pocket_file) or example
    return f"put '-' between the squares (the piece's label may come first): write '{example}'"


def foreign_notation_hint(ply_text: str, word: str, pocket_file: PocketFile) -> str | None:
    """Recognise notations from other programs by their shape; None if nothing fits.

    `ply_text` is the ply (no number, no comment), `word` the word at the error.
    """
    if _POSITION.fullmatch(ply_text.strip(LINE_SPACE)):
        return (
            "this is a position (a FEN), not moves: give it with --fen: 'gcadj check --fen "
            "FEN game.txt' judges a game's moves from it, 'gcadj adjudicate --fen FEN' "
            "adjudicates it"
        )
    if ply_text.lstrip(LINE_SPACE).startswith("#"):
        return _hash_hint(ply_text, pocket_file)
    dash = _dash_hint(ply_text, pocket_file)
    if dash is not None:
        return dash
    if any(Result.read(w) is not None for w in (word, *words(ply_text))):
        return (
            "results are not moves in Game Courier; a finished game shows a status line, "
            'which gcadj reads from a tag like [Status "Black has resigned."]'
        )
    if _CASTLING.fullmatch(word):
        return (
            "Game Courier has no 'O-O', and Pocket Mutation Chess has no castling: "
            "the King and the Rook each move on a turn of their own"
        )
    two = _two_plies_hint(ply_text, pocket_file)
    if two is not None:
        return two
    spaced = _SPACED_MOVE.fullmatch(ply_text.strip(LINE_SPACE))
    if spaced:
        label, origin, target = spaced.groups()
        return f"join the two squares with '-': write '{label} {origin}-{target}'"
    sans = (w for w in words(ply_text) if _SAN.fullmatch(w))
    two_sans = next(sans, None) is not None and next(sans, None) is not None
    if two_sans or _MOVE_NUMBER_INSIDE.search(ply_text):
        return (
            "this looks like PGN movetext; Game Courier takes one ply per line, "
            "optionally numbered: '1. P e2-e4', then '1... p e7-e5'"
        )
    pocket_move = _san_pocket_move_hint(ply_text, word, pocket_file)
    if pocket_move is not None:
        return pocket_move
    if "=" in word:
        return _suffix_hint(ply_text, word, pocket_file)
    missing_hyphen = _missing_hyphen_hint(ply_text, pocket_file)
    if missing_hyphen is not None:
        return missing_hyphen
    if "#" in ply_text:
        comment = _hash_hint(ply_text, pocket_file)
        if comment is not None:
            return comment
    if "+" in word or "#" in word:
        unmarked = re.sub(LOOSE_MARKS, "", ply_text)
        captures = _X_CAPTURE.search(unmarked) is not None  # Q h5xf7#: both slips at once
        if captures:
            unmarked = _X_CAPTURE.sub(
                lambda m: f"{m[1]} {m[2]}-{m[3]}" if m[1] else f"{m[2]}-{m[3]}", unmarked
            )
        example = _rewritten(unmarked, pocket_file) if len(ply_text) <= EXAMPLE_LIMIT else None
        also = ", nor is 'x' (moving onto an occupied square captures)" if captures else ""
        return (
            f"check and mate marks ('+', '#') are not Game Courier syntax{also}; leave them "
            "out" + _write(example)
        )
    capture = _X_CAPTURE.search(ply_text)
    if capture:
        label, origin, target = capture.groups()
        fixed = f"{label} {origin}-{target}" if label else f"{origin}-{target}"
        example = fixed
        if len(ply_text) <= EXAMPLE_LIMIT:  # the whole ply, other sub-moves included
            whole = _X_CAPTURE.sub(
                lambda m: f"{m[1]} {m[2]}-{m[3]}" if m[1] else f"{m[2]}-{m[3]}", ply_text
            )
            example = _rewritten(whole, pocket_file) or fixed
        return (
            "Game Courier has no 'x': moving onto an occupied square captures, "
            f"so write '{example}'"
        )
    uci = _uci_hint(ply_text, word, pocket_file)
    if uci is not None:
        return uci
    if _SAN.fullmatch(word):
        return (
            "this looks like SAN; Game Courier names the piece, its square and its target, "
            "e.g. 'N g1-f3' rather than 'Nf3'"
        )
    return None


def bad_square_hint(square: str, pocket_file: PocketFile) -> str:
    """Why a square-like word is not a square of the Pocket Mutation Chess board."""
    file = square[0]
    pockets = f"{pocket_file}1 and {pocket_file}8"
    if file == pocket_file:
        return f"{square} is not a square: only {pockets} (the pockets) exist on the ninth file"
    if file.isupper() and file.lower() in BOARD_FILES + pocket_file:
        return f"squares are written in lower case: {square.lower()}"
    if file in BOARD_FILES:
        return f"{square} is not a square: ranks run from 1 to 8"
    hint = f"{square} is not a square: files run from a to h, plus {pocket_file} for the "
    hint += f"pockets {pockets}"
    if is_preset_file(file) and square[1:] in ("1", "8"):  # another preset's pocket square
        hint += (
            f"; a log whose pockets are on file {file} ({presets_in_words()}) is read so "
            f"without --pocket-file, or with --pocket-file {file}"
        )
    elif is_pocket_letter(file) and square[1:] in ("1", "8"):
        hint += (
            f"; no preset has its pockets on file {file} ({presets_in_words()}); "
            f"--pocket-file {file} reads a log whose pockets are there"
        )
    return hint
