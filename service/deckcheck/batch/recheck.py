"""Batch rechecks: one result line per NDJSON input line, in order, and a summary of what a list change broke.

The same code serves POST /v1/rechecks and `deckcheck recheck`; it holds nothing per deck beyond the summary's
counts (and the first ids of decks a list change made illegal), so memory stays flat however many decks pass.
A result line says its deck's verdict in one word (`verdict`: legal, illegal, or with a previous list newly_illegal
or still_illegal) and echoes the line's own fields (`fields`), as an error line does where it can read them.

A line is read as the desk and deck files are: UTF-8, else Shift_JIS as Windows writes it (batch/decoding.py).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import replace
from typing import Any

import numpy as np
import orjson
from pydantic import ValidationError

from deckcheck.batch.chunk import Chunk, decode, read_links
from deckcheck.batch.columnar import judge
from deckcheck.batch.decoding import Line, read_lines
from deckcheck.batch.entries import entries_chunk
from deckcheck.batch.files import MAX_LINE_BYTES, Decoded, Joined, Unread
from deckcheck.batch.findings import array_findings, reportable
from deckcheck.batch.quick import Quick, fields_errors, id_and_fields, own_fields
from deckcheck.batch.rendered import Heads, Renderer, causes, legal_lines, plain_line
from deckcheck.batch.spec import RecheckSetup
from deckcheck.batch.stored import Stored, stored_links
from deckcheck.batch.summary import Outcome, Summary, verdict_of
from deckcheck.data import Data
from deckcheck.errors import RequestError
from deckcheck.model import Context, Deck, Protectors, Report, deck_of
from deckcheck.rules import full_report, validate
from deckcheck.wire.inputs import DEFAULT_LANGUAGES, deck_from, link_copies
from deckcheck.wire.reports import violations_json
from deckcheck.wire.requests import RecheckLine

Fields = dict[str, Any] | None
MAX_RENDERERS = 16  # contexts whose renderings a checker keeps (a batch's lines give protectors and languages)


class Rechecker:
    """Checks NDJSON lines one by one against a fixed setup."""

    def __init__(self, data: Data, setup: RecheckSetup) -> None:
        self.data = data
        self.setup = setup
        language = DEFAULT_LANGUAGES[setup.format]
        self.context = Context(setup.date, setup.banlist, data.cards, default_language=language, format=setup.format)
        self.before = None if setup.previous is None else replace(self.context, banlist=setup.previous)
        self._renderers: dict[Context, Renderer] = {}

    def _contexts(self, protectors: Protectors | None, language: str | None) -> tuple[Context, Context | None]:
        """The batch's contexts, with a deck's own protectors and default language (a primary subtag) where it
        gives either."""
        if protectors is None and language is None:
            return self.context, self.before
        language = language or self.context.default_language
        now = replace(self.context, protectors=protectors, default_language=language)
        return now, None if self.before is None else replace(
            self.before, protectors=protectors, default_language=language
        )

    def check_lines(self, first: int, lines: Sequence[Line] | Joined) -> tuple[bytes, Summary]:
        """The result lines of consecutive input lines numbered from `first`, and their summary."""
        results, summary = self.summed(first, lines)
        return b"".join([line for line, _outcome in results]), summary

    def summed(self, first: int, lines: Sequence[Line] | Joined) -> tuple[list[tuple[bytes, Outcome]], Summary]:
        """`results`, and their summary with the lines read in each encoding."""
        stored, (read, plains, (utf8, cp932)) = _read(lines)
        results = self._results(first, stored, read, plains)
        summary = Summary(utf8=utf8 + len(stored.rows), cp932=cp932)
        summary.add_results(results)
        return results, summary

    def results(self, first: int, lines: Sequence[Line] | Joined) -> list[tuple[bytes, Outcome]]:
        """The result line and outcome of each of consecutive input lines numbered from `first`, each line read as
        text by `read_lines`."""
        stored, (read, plains, _counts) = _read(lines)
        return self._results(first, stored, read, plains)

    def _results(
        self, first: int, stored: Stored, lines: Sequence[Line], plains: list[Quick | None]
    ) -> list[tuple[bytes, Outcome]]:
        """The result line and outcome of each of consecutive input lines numbered from `first`: the lines in the
        stored form (`stored`), and the others (`lines`, read as UTF-8, at `stored.others`), each with the plain
        line it is (None where it is not one). The plain lines are judged together by the columnar verdict, those
        of a form and context at once: the legal ones are answered from it, the others by the engine with the
        previous list's verdict taken from it where it is exact; every other line by the engine, line by line."""
        out: list[tuple[bytes, Outcome] | None] = [None] * (len(stored.rows) + len(lines))
        if stored.rows:
            chunk = read_links(stored.buffer, stored.starts, stored.ends, stored.value)
            contexts = self._contexts(None, None)  # a stored line gives neither protectors nor a language
            self._answer_group(first, stored.heads(), contexts, plain=stored.quick, chunk=chunk, out=out)
        groups: dict[Hashable, list[tuple[int, Quick]]] = {}
        for index, plain in enumerate(plains):
            if plain is not None:
                groups.setdefault(plain.group, []).append((stored.others[index], plain))
        for pairs in groups.values():
            group = [plain for _index, plain in pairs]
            decks = [plain.deck for plain in group]
            links = [deck for deck in decks if isinstance(deck, str)]
            chunk = decode(links) if links else entries_chunk([deck for deck in decks if not isinstance(deck, str)])
            heads = Heads(
                [index for index, _plain in pairs],
                [orjson.dumps(plain.id) for plain in group],
                [plain.id for plain in group],
                [plain.fields for plain in group],
            )
            contexts = self._contexts(group[0].protectors, group[0].language)
            self._answer_group(first, heads, contexts, plain=group.__getitem__, chunk=chunk, out=out)
        for index, plain in enumerate(plains):
            if plain is None:
                out[stored.others[index]] = self.check(first + stored.others[index], lines[index])
        return [answer for answer in out if answer is not None]

    def _answer_group(
        self,
        first: int,
        heads: Heads,
        contexts: tuple[Context, Context | None],
        *,
        plain: Callable[[int], Quick],
        chunk: Chunk,
        out: list[tuple[bytes, Outcome] | None],
    ) -> None:
        """Answer in `out` the plain lines of one form and context whose decks `chunk` holds: `heads` what each
        one's result line begins with (and its place in `out`), `contexts` the group's, `plain` the plain line of the
        chunk's row."""
        members = heads.members
        for row, was_legal in self._answer_plain(first, heads, chunk, contexts, out):
            line = plain(row)
            out[members[row]] = self._judge(
                first + members[row],
                line.id,
                line.deck,
                contexts,
                was_legal=was_legal,
                fields=line.fields,
                illegal=bool(chunk.readable[row]),  # the columnar verdict is exact on the decks it reads
            )

    def _answer_plain(
        self,
        first: int,
        heads: Heads,
        chunk: Chunk,
        contexts: tuple[Context, Context | None],
        out: list[tuple[bytes, Outcome] | None],
    ) -> list[tuple[int, bool | None]]:
        """Answer in `out` the decks of `chunk`, the plain lines whose result lines begin with `heads`, that break
        no rule or whose report the arrays make; the row of every other deck, with its verdict under the previous
        list where the columnar verdict's is exact (a deck read whole breaks a rule besides the list's under both
        lists, or the list's alone)."""
        now, before = contexts
        lists = [now.banlist] if before is None else [now.banlist, before.banlist]
        judged = judge(chunk, now, lists)
        sizes = chunk.lengths.reshape(-1, 3).tolist()
        legal_before = [None] * chunk.decks if before is None else judged.legal[1].tolist()
        rows = np.flatnonzero(reportable(chunk, judged, now))
        renderer = self._renderer(now)
        legal = judged.legal[0]
        for index, answer in legal_lines(first, heads, np.flatnonzero(legal).tolist(), sizes, legal_before):
            out[index] = answer
        reported = rows.tolist()
        members = heads.members
        for row, found in zip(reported, array_findings(chunk, judged, now, rows, renderer.memo), strict=True):
            out[members[row]] = plain_line(
                first, heads, row, sizes[row], rendered=renderer.render(found), was_legal=legal_before[row]
            )
        readable = chunk.readable.tolist()
        done = set(reported)
        return [
            (row, legal_before[row] if readable[row] else None)
            for row in np.flatnonzero(~legal).tolist()
            if row not in done
        ]

    def check(self, number: int, raw: Line) -> tuple[bytes, Outcome]:
        """The result line (with its newline) for input line `number`, and its outcome for the summary, from the
        engine."""
        try:
            line, fields = self._parse(raw)
        except _LineError as exc:
            return self._error(number, exc.id, exc.errors, exc.fields)
        protectors = None if line.protectors is None else Protectors(**line.protectors.model_dump())
        language = None if line.default_language is None else line.default_language.split("-")[0].lower()
        contexts = self._contexts(protectors, language)
        if line.ydke is not None:
            return self._judge(number, line.id, line.ydke, contexts, fields=fields)
        try:
            deck = deck_from(line, self.data, ())
        except RequestError as exc:  # a .ydk or text source that cannot be read, or a deck past the bounds
            return self._error(number, line.id, exc.errors, fields)
        return self._judge(number, line.id, deck, contexts, fields=fields)

    def _judge(
        self,
        number: int,
        deck_id: str | int,
        source: str | Deck,
        contexts: tuple[Context, Context | None],
        *,
        was_legal: bool | None = None,
        fields: Fields = None,
        illegal: bool = False,
    ) -> tuple[bytes, Outcome]:
        """The engine's result line on a deck given as a ydke link or read already; `was_legal` is the verdict
        under the previous list where it is known, `fields` the line's own, and `illegal` says the deck is known to
        break a rule."""
        now, before = contexts
        if isinstance(source, str):
            # A ydke link is read straight into copies per card, the bounds checked on those.
            try:
                source = deck_of(link_copies(source, ()))
            except RequestError as exc:
                return self._error(number, deck_id, exc.errors, fields)
        if before is not None and was_legal is None:
            was_legal = validate(source, before).legal
        report = full_report(source, now) if illegal else validate(source, now)
        return self._result(_head(number, deck_id, fields), source, report, was_legal)

    def _result(
        self, result: dict[str, Any], deck: Deck, report: Report, was_legal: bool | None
    ) -> tuple[bytes, Outcome]:
        """The result line of the engine's report on `deck`, as /v1/validate gives it, with what the previous list
        said, after the line's number, id and own fields (`result`)."""
        result |= {
            "legal": report.legal,
            "verdict": verdict_of(report.legal, was_legal),
            "penalty": report.penalty,
            "counts": report.counts,
            "violations": violations_json(report, self.setup.lang, deck),
        }
        newly = was_legal is True and not report.legal
        if was_legal is not None:
            result |= {"legal_before": was_legal, "newly_illegal": newly}
        outcome = Outcome(
            "legal" if report.legal else "illegal",
            result["id"],
            tuple(v.code for v in report.violations),
            newly_illegal=newly,
            causes=causes(report.violations) if newly else (),
            penalty=report.penalty,
            legal_before=was_legal,
            fields=result.get("fields"),
        )
        return orjson.dumps(result) + b"\n", outcome

    def _renderer(self, context: Context) -> Renderer:
        """The renderer of findings under `context`, kept for the contexts of the batch (a few at most)."""
        renderer = self._renderers.get(context)
        if renderer is None:
            if len(self._renderers) >= MAX_RENDERERS:
                self._renderers.clear()
            renderer = self._renderers[context] = Renderer(context, self.setup.lang)
        return renderer

    def _parse(self, raw: Line) -> tuple[RecheckLine, Fields]:
        """The line read by the models, and its own fields as orjson reads them (as `quick` does)."""
        if isinstance(raw, Unread):
            raise _LineError(raw.errors, raw.id)
        if isinstance(raw, Decoded):  # a line `check` is given itself, not read by read_lines
            raw = raw.line
        if raw is None or len(raw) > MAX_LINE_BYTES:
            raise _LineError([{"loc": [], "msg": f"line longer than {MAX_LINE_BYTES} bytes", "type": "line_too_long"}])
        if not raw.strip():
            raise _LineError([{"loc": [], "msg": "empty line: one deck a line", "type": "empty_line"}])
        try:
            line = RecheckLine.model_validate_json(raw)
        except ValidationError as exc:
            errors = [{"loc": list(e["loc"]), "msg": e["msg"], "type": e["type"]} for e in exc.errors()]
            raise _LineError(errors, *id_and_fields(raw)) from None
        if not line.model_extra:
            return line, None
        try:  # the models read NaN and numbers past 64 bits, which orjson (and JSON) does not
            fields = own_fields(orjson.loads(raw))
        except orjson.JSONDecodeError as exc:
            raise _LineError([{"loc": [], "msg": f"Invalid JSON: {exc}", "type": "json_invalid"}], line.id) from None
        if errors := fields_errors(fields):
            raise _LineError(errors, line.id)
        return line, fields

    def _error(
        self, number: int, deck_id: Any, errors: list[dict[str, Any]], fields: Fields = None
    ) -> tuple[bytes, Outcome]:
        body = _head(number, deck_id, fields) | {"error": {"msg": errors[0]["msg"], "errors": errors}}
        return orjson.dumps(body) + b"\n", Outcome("error", deck_id, fields=fields)


class _LineError(Exception):
    def __init__(self, errors: list[dict[str, Any]], deck_id: Any = None, fields: Fields = None) -> None:
        super().__init__(errors[0]["msg"])
        self.errors = errors
        self.id = deck_id
        self.fields = fields


def _read(lines: Sequence[Line] | Joined) -> tuple[Stored, tuple[Sequence[Line], list[Quick | None], tuple[int, int]]]:
    """The lines in the stored form, read at once, and the others read by `read_lines`."""
    stored = stored_links(lines)
    if not stored.others:
        return stored, ([], [], (0, 0))
    if isinstance(lines, Joined):
        return stored, read_lines(lines.lines_at(stored.others))
    return stored, read_lines([lines[index] for index in stored.others])


def _head(number: int, deck_id: Any, fields: Fields) -> dict[str, Any]:
    """What a result or error line begins with: the line's number, its id, and its own fields where it has any."""
    return {"line": number, "id": deck_id} if fields is None else {"line": number, "id": deck_id, "fields": fields}
