"""The count of the exchanges written for people: each side's total after them, their line
in Game Courier text and SAN, and what each side loses on the way, in words.

The count itself is `gcadj.analysis.exchanges` (it knows only the engine); this module
makes the data an adjudication and a game's analysis carry (`AfterExchanges`) and the
words their reasons say: ``3. Nxg5 (Black loses a Queen)``.
"""

from __future__ import annotations

from gcadj.analysis import exchanges
from gcadj.analysis.exchanges import ExchangeCount, count_exchanges
from gcadj.analysis.proof import line_text
from gcadj.engine.move import Move
from gcadj.engine.position import Position
from gcadj.engine.squares import BLACK, POCKET, WHITE
from gcadj.judging.adjudication import AfterExchanges
from gcadj.notation.san import numbered_moves
from gcadj.vocabulary import DEFAULT_POCKET_FILE, PocketFile, Side


def after_exchanges(
    position: Position, pocket_file: PocketFile = DEFAULT_POCKET_FILE
) -> tuple[AfterExchanges, ExchangeCount]:
    """The material of `position` (not changed) after the forced exchanges, as data (and
    the count it was made from).

    Examples:
        >>> from gcadj.engine.position import Position
        >>> hanging = Position("rnb1kbnr/pppp1ppp/8/4p1q1/4P3/5N2/PPPP1PPP/RNBQKB1R[] w - - 2 3")
        >>> found, _ = after_exchanges(hanging)
        >>> found.line, found.san, found.balance
        (('N f3-g5',), ('Nxg5',), 5)
    """
    count = count_exchanges(position)
    line = line_text(position, list(count.line), pocket_file)
    mate = None if count.mated is None else Side.of(count.mated).other
    found = AfterExchanges(count.white, count.black, line.gc, line.san, mate, count.cut, line.steps)
    return found, count


def exchange_words(position: Position, found: AfterExchanges, moves: tuple[Move, ...]) -> str:
    """The line of exchanges from `position`, numbered, in SAN, with what each side loses:
    ``3. Nxg5 (Black loses a Queen)``; empty when there is no line.

    Examples:
        >>> from gcadj.engine.position import Position
        >>> hanging = Position("rnb1kbnr/pppp1ppp/8/4p1q1/4P3/5N2/PPPP1PPP/RNBQKB1R[] w - - 2 3")
        >>> found, count = after_exchanges(hanging)
        >>> exchange_words(hanging, found, count.line)
        '3. Nxg5 (Black loses a Queen)'
    """
    if not moves:
        return ""
    line = numbered_moves(found.san, position.fen())
    return f"{line} ({what_changes(position, moves, found.mate)})"


def what_changes(position: Position, moves: tuple[Move, ...], mate: Side | None = None) -> str:
    """What legal `moves` from `position` (not changed) take and promote, side by side:
    ``White loses a Bishop; Black loses 2 Pawns and a Queen``, ``White promotes a Rook``,
    ``Black is mated`` when `mate` says White mates at the end; "nothing changes hands"
    when none of this happens."""
    lost: tuple[list[str], list[str]] = ([], [])
    promoted: tuple[list[str], list[str]] = ([], [])
    walk = position.copy()
    for move in moves:
        f, t, _ = move
        if f != POCKET:
            piece = walk.board[f]
            assert piece is not None
            if t == POCKET and move.kind is not None:
                if move.kind.value_class != piece.kind.value_class:
                    promoted[piece.color].append(piece.kind.name)
            else:
                victim = walk.en_passant_victim(move)
                taken = walk.board[t if victim is None else victim]
                if taken is not None:
                    lost[taken.color].append(taken.kind.name)
        walk.push_trusted(move)
    parts = []
    for color in (WHITE, BLACK):
        if lost[color]:
            parts.append(f"{Side.of(color).capitalized} loses {_pieces(lost[color])}")
        if promoted[color]:
            parts.append(f"{Side.of(color).capitalized} promotes {_pieces(promoted[color])}")
    if mate is not None:
        parts.append(f"{mate.other.capitalized} is mated")
    return "; ".join(parts) or "nothing changes hands"


def cut_words(cut: str) -> str:
    """Why a count of the exchanges was cut, in words: the bound it reached."""
    if cut == "plies":
        return f"a line reached {exchanges.MAX_PLIES} plies"
    if cut == "nodes":
        limit = exchanges.NODE_LIMIT
        return f"it visited {limit:,} position{'' if limit == 1 else 's'}"
    return cut


def _pieces(names: list[str]) -> str:
    """``a Queen``, ``2 Pawns and an Amazon``: the pieces named, counted, in order met."""
    counted: dict[str, int] = {}
    for name in names:
        counted[name] = counted.get(name, 0) + 1
    words = [
        f"{'an' if name[0] in 'AEIOU' else 'a'} {name}" if count == 1 else f"{count} {name}s"
        for name, count in counted.items()
    ]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


__all__ = ["after_exchanges", "cut_words", "exchange_words", "what_changes"]
