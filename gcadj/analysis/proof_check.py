"""The proof checker: accepts a forced mate only when its tree, read as Game Courier text,
answers every defence and mates on every line.

It is not the prover (an import contract forbids it to import `gcadj.analysis.search`): it
reads the tree's JSON (`gcadj.analysis.proof`), the shape ``gcadj adjudicate --json``
prints, and replays it the way a log is judged:

* each of the winner's moves is read by the notation layer (`parse_log`, one ply) and
  judged by the single-ply judge that judges every ply of a log
  (`gcadj.judging.judge.PlyJudge`): an illegal one is rejected with the judge's reason;
* at each of the loser's turns, the replies must be exactly the legal moves of the
  position (`Position.legal_moves`, written as Game Courier text): none left out, none
  added;
* every line must end in checkmate by the winner (`Position.outcome`), within the claimed
  number of the winner's moves; a position on the way where the game ends otherwise
  (stalemate, a dead position, fifty moves, a repetition the loser may claim) breaks the
  proof.

`check_proof` returns a `ProofCheck`: accepted, or the first reason to reject, naming the
line that leads to it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gcadj.engine.position import Position
from gcadj.engine.squares import COLOR_NAMES
from gcadj.errors import LogSyntaxError, ProofFault
from gcadj.judging.judge import IllegalPly, PlyJudge
from gcadj.notation.parse import parse_log
from gcadj.notation.records import MoveRecord
from gcadj.notation.san import gc_text
from gcadj.vocabulary import DEFAULT_POCKET_FILE, PocketFile, Side, Termination

SIDES = {Side.WHITE.value: 0, Side.BLACK.value: 1}


@dataclass(frozen=True)
class ProofCheck:
    """The checker's answer: `accepted`, and `reason`, which says why not (or what was
    accepted)."""

    accepted: bool
    reason: str


def check_proof(
    position: Position,
    tree: Any,
    *,
    winner: str,
    moves: int,
    pocket_file: PocketFile = DEFAULT_POCKET_FILE,
) -> ProofCheck:
    """Check that `tree` (JSON, see `gcadj.analysis.proof`) proves that `winner` ("white"
    or "black") mates within `moves` of its moves from `position` (not changed)."""
    checker = _Checker(position.copy(), pocket_file)
    try:
        checker.check_root(tree, winner, moves)
    except ProofFault as fault:
        return ProofCheck(False, str(fault))
    plies = f"{checker.lines} line{'' if checker.lines == 1 else 's'}"
    return ProofCheck(
        True, f"every defence answered; {plies}, each mated within {_moves(moves)} of {winner}"
    )


def _moves(n: int) -> str:
    return f"{n} move{'' if n == 1 else 's'}"


class _Checker:
    def __init__(self, position: Position, pocket_file: PocketFile) -> None:
        self.position = position
        self.pocket_file = pocket_file
        self.judge = PlyJudge(pocket_file)
        self.path: list[str] = []
        self.lines = 0

    def reject(self, what: str) -> ProofFault:
        where = f"after {', '.join(self.path)}: " if self.path else "at the start: "
        return ProofFault(where + what)

    def check_root(self, tree: Any, winner: str, moves: int) -> None:
        if winner not in SIDES:
            raise self.reject(f"the winner must be 'white' or 'black', not {winner!r}")
        if not isinstance(moves, int) or isinstance(moves, bool) or moves < 1:
            raise self.reject(f"the number of moves must be a whole number ≥ 1, not {moves!r}")
        position = self.position
        over = position.outcome()
        if over is not None:
            raise self.reject(f"the game is already over ({over.termination})")
        move, replies = self.node(tree)
        if SIDES[winner] == position.turn:
            if move is None:
                raise self.reject(f"{winner} is to move, so the root needs {winner}'s move")
            self.winner_move(move, replies, moves)
        else:
            if move is not None:
                raise self.reject(f"{winner} is not to move, so the root's move must be null")
            self.defences(replies, moves)

    def node(self, tree: Any) -> tuple[str | None, dict[str, Any]]:
        if not isinstance(tree, dict) or set(tree) != {"move", "replies"}:
            raise self.reject('a node must be an object with exactly "move" and "replies"')
        move, replies = tree["move"], tree["replies"]
        if move is not None and not isinstance(move, str):
            raise self.reject(f'"move" must be Game Courier text or null, not {move!r}')
        if not isinstance(replies, dict):
            raise self.reject('"replies" must be an object (defence: answer)')
        return move, replies

    def winner_move(self, text: str, replies: dict[str, Any], moves_left: int) -> None:
        """Judge the winner's move `text`, then its replies."""
        if moves_left < 1:
            raise self.reject(f"{text!r} is one move too many: the line is longer than claimed")
        position = self.position
        mover = position.turn
        self.play(text, "the winner's move")
        try:
            if not replies:
                over = position.outcome()
                if over is None or over.termination is not Termination.CHECKMATE:
                    ending = "the game goes on" if over is None else f"{over.termination}"
                    raise self.reject(f"the line ends without checkmate ({ending})")
                if over.winner != mover:
                    raise self.reject("the line ends in checkmate of the winner")
                self.lines += 1
                return
            if position.is_checkmate():
                raise self.reject("the move mates, so no defence can answer it")
            self.goes_on()
            self.defences(replies, moves_left - 1)
        finally:
            self.unplay()

    def defences(self, replies: dict[str, Any], moves_left: int) -> None:
        """The loser to move: `replies` must answer exactly its legal moves."""
        position = self.position
        legal = {gc_text(position, move, self.pocket_file): move for move in position.legal_moves()}
        for text in legal:
            if text not in replies:
                raise self.reject(f"the defence {text!r} is not answered")
        for text in replies:
            if text not in legal:
                raise self.reject(self.not_a_defence(text))
        if moves_left < 1:
            raise self.reject("the line is longer than claimed: no move is left to mate")
        for text, answer in replies.items():
            position.push_trusted(legal[text])
            self.path.append(text)
            try:
                self.goes_on()
                move, next_replies = self.node(answer)
                if move is None:
                    raise self.reject(f"the defence {text!r} has no answer (its move is null)")
                self.winner_move(move, next_replies, moves_left)
            finally:
                self.path.pop()
                position.pop()

    def goes_on(self) -> None:
        """The game must go on here (a draw the loser may claim counts as an end)."""
        over = self.position.outcome(claim_draw=True)
        if over is not None:
            result = "" if over.winner is None else f", {COLOR_NAMES[over.winner]} wins"
            raise self.reject(f"the game ends here ({over.termination}{result}), not in mate")

    def not_a_defence(self, text: str) -> str:
        """Why a reply's text is no defence: an illegal ply, or a legal move written
        otherwise than gcadj writes it."""
        try:
            record = self.one_ply(text)
        except ProofFault as fault:
            return str(fault).split(": ", 1)[-1]
        ruling = self.judge.resolve(self.position, record)
        if isinstance(ruling, IllegalPly):
            return f"{text!r} is no legal move here ({ruling.category}: {ruling.reason})"
        written = gc_text(self.position, ruling, self.pocket_file)
        return f"{text!r} is a legal move, but it is written {written!r}"

    def one_ply(self, text: str) -> MoveRecord:
        if not text.strip() or "\n" in text or "\r" in text:
            raise self.reject(f"{text!r} is not one ply of Game Courier text")
        try:
            log = parse_log(text, "<proof>", self.pocket_file)
        except LogSyntaxError as err:
            first = str(err).splitlines()[0]
            raise self.reject(f"{text!r} cannot be read: {first}") from None
        if len(log.records) != 1 or log.tags:
            raise self.reject(f"{text!r} is not one ply of Game Courier text")
        return log.records[0]

    def play(self, text: str, what: str) -> None:
        record = self.one_ply(text)
        ruling = self.judge.play(self.position, record)
        if isinstance(ruling, IllegalPly):
            raise self.reject(f"{what} {text!r} is illegal ({ruling.category}: {ruling.reason})")
        self.path.append(text)

    def unplay(self) -> None:
        self.path.pop()
        self.position.pop()


__all__ = ["ProofCheck", "check_proof"]
