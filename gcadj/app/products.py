"""What a batch writes besides its JSON lines: the games' viewer pages, the CSV and the
report, for ``gcadj audit`` and ``gcadj serve`` alike.

- `write_game_page` is the one writer of a game's viewer page: it names the file
  (`gcadj.outputs.viewer.viewer_filename`, which the report also follows to link it),
  never writes over a file gcadj did not write, and writes it whole (a temporary file
  renamed) so a killed worker leaves no half page. A failure costs only the page, never
  the verdict. `ViewerPages` says which games get one and how: pages that link one shared
  style and script (`write_viewer_assets` puts them in the folder once, before any page:
  5 KB a page instead of 30; the audit's), or self-contained pages. (``gcadj serve``
  keeps each game's viewer data instead: `gcadj.app.worker_judging.WorkerSettings.views`.)
- `write_products` writes the CSV and the report from the JSONL file, so a resumed audit
  or a check's folder counts everything, and nothing is judged again.

Every write that fails for the file system's sake raises `CannotWrite` ("cannot write
report.html: No space left on device"): the user's disk, not a bug, as for every command.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Final

from gcadj.errors import AuditError, CannotWrite
from gcadj.vocabulary import Status

if TYPE_CHECKING:
    from gcadj.judging.verdict import Verdict
    from gcadj.outputs.audit_report import FactsLookup, LinkLookup, Summary

log = logging.getLogger(__name__)


class ViewerChoice(str, Enum):
    """Which games of an audit get a viewer page: the point of a report is the failing
    games, and a page per legal game of a large archive costs time and files that few
    will open (``all`` makes them too; ``none`` leaves the report without links)."""

    FAILING = "failing"
    ALL = "all"
    NONE = "none"

    def wants(self, verdict: Verdict) -> bool:
        """Does this game get a page? (One without a game to show never does.)"""
        if verdict.log is None or self is ViewerChoice.NONE:
            return False
        return self is ViewerChoice.ALL or verdict.status != Status.LEGAL


DEFAULT_VIEWERS: Final = ViewerChoice.FAILING


@dataclass(frozen=True)
class ViewerPages:
    """Where the viewer pages go, for which games, and how: `linked` pages share the
    style and script `write_viewer_assets` wrote in `folder`; otherwise each is
    self-contained."""

    folder: Path
    games: ViewerChoice = DEFAULT_VIEWERS
    linked: bool = True


def write_game_page(verdict: Verdict, pages: ViewerPages) -> str | None:
    """The game's viewer page in `pages.folder`, if `pages.games` wants one: its file
    name, or None (no page wanted, none possible, or it could not be written: the
    verdict stands all the same, and the failure is logged)."""
    from gcadj.about import is_gcadj_html
    from gcadj.outputs.files import write_text_file
    from gcadj.outputs.viewer import viewer_assets, viewer_filename, write_viewer

    if not pages.games.wants(verdict):
        return None
    target = pages.folder / viewer_filename(verdict.source)
    try:
        if target.exists():
            with target.open("r", encoding="utf-8", errors="replace") as handle:
                if not is_gcadj_html(handle.read(4096)):
                    log.warning("%s: not written over (gcadj did not write it)", target)
                    return None
        page = write_viewer(verdict, assets=viewer_assets() if pages.linked else None)
        write_text_file(target, page, overwrite=True)
    except OSError as err:  # the disk: one line, as `CannotWrite` words it
        log.warning("no viewer for %s: %s", verdict.source, CannotWrite(str(target), err))
        return None
    except Exception:  # a bug: a page must never cost the verdict
        log.warning("no viewer for %s", verdict.source, exc_info=True)
        return None
    return target.name


def write_viewer_assets(folder: Path) -> None:
    """Make `folder` and write in it the style and script every linked viewer page links
    (`ViewerAssets`), once, before any page; a file of that name is left alone (its name
    is a digest of its text, so it already holds it, unless gcadj did not write it: then
    it is not replaced, and `AuditError` says so). `CannotWrite` when the folder or a
    file cannot be written."""
    from gcadj.outputs.files import write_text_file
    from gcadj.outputs.viewer import viewer_assets

    try:
        folder.mkdir(exist_ok=True)
    except OSError as err:
        raise CannotWrite(str(err.filename or folder), err) from None
    for name, text in viewer_assets().files.items():
        target = folder / name
        try:
            if target.exists():
                if target.read_text(encoding="utf-8", errors="replace") != text:
                    raise AuditError(f"{target}: not written over (gcadj did not write it)")
                continue
            write_text_file(target, text, overwrite=False)
        except OSError as err:
            raise CannotWrite(str(err.filename or target), err) from None


def viewer_folder(report: Path | None, viewers: Path | None) -> Path | None:
    """Where the game viewers go: `viewers`, else beside the report (a.html: a-viewers/)."""
    if viewers is not None:
        return viewers
    if report is None:
        return None
    return report.with_name(f"{report.stem}-viewers")


@dataclass(frozen=True)
class Products:
    """What is made from a batch's JSONL at its end: a CSV, a report (which links the
    viewer pages in `viewers`), each optional."""

    csv: Path | None = None
    report: Path | None = None
    viewers: Path | None = None


def write_products(
    jsonl: Path,
    products: Products,
    *,
    summary: Summary | None = None,
    order: Mapping[str, int] | None = None,
    facts: FactsLookup | None = None,
    links: LinkLookup | None = None,
    name: str | None = None,
) -> None:
    """The CSV and the report of `products`, from `jsonl` (the report's rows in `order`,
    each with what `facts` says of its game, linked to its viewer in `products.viewers`
    or at the address `links` gives; titled `name`, see `write_report`); `CannotWrite`
    when one cannot be written."""
    from gcadj.outputs.audit_report import summarize, write_csv, write_report

    target = products.csv
    try:
        if products.csv is None and products.report is None:
            return
        summary = summary or summarize(jsonl)
        if products.csv is not None:
            write_csv(
                jsonl,
                products.csv,
                adjudicated=summary.adjudicated,
                analysed=bool(summary.analysed),
            )
        target = products.report
        if products.report is not None:
            write_report(
                jsonl,
                products.report,
                summary,
                order=order,
                viewers=products.viewers,
                facts=facts,
                links=links,
                name=name,
            )
    except OSError as err:
        raise CannotWrite(str(err.filename or target or jsonl), err) from None


__all__ = [
    "DEFAULT_VIEWERS",
    "Products",
    "ViewerChoice",
    "ViewerPages",
    "viewer_folder",
    "write_game_page",
    "write_products",
    "write_viewer_assets",
]
