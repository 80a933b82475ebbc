"""Recheck a table of decks: one partition of a store kept as Parquet, in a Dask worker (batch/cluster.py), a Spark
`mapInArrow` or a Ray `map_batches` task.

`recheck_partition(table, spec)` takes a pyarrow Table (or a pandas DataFrame) whose rows are recheck lines: an `id`
column and the deck in the columns a line gives it in (`ydke`, `ydk` or `text` strings, or `main`, `extra`, `side`
lists of `{passcode, count, language}`; `protectors` and `default_language` where decks give them); every other
column is the caller's own field (`player`, `email`), carried into the result as an NDJSON line's own fields are
(a value JSON has no type for, such as a decimal, as its text). A column of bytes (binary: what pyarrow's CSV
reader makes of a column that is not UTF-8, such as a Shift_JIS CSV's) is read as the desk reads a file, UTF-8 else
Shift_JIS (CP932), and the summary counts a row with such a cell as read in CP932, as it counts an NDJSON line
(batch/decoding.py `read_lines`). Each row is checked as the NDJSON line of its non-null fields would be, in chunks
through the columnar verdict, and answered by one row of RESULTS: the result line itself (`result`, the same bytes
`deckcheck recheck` writes) and its verdict as columns a warehouse can query. Needs the `dask` extra's pyarrow.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache, partial
from pathlib import Path
from typing import Any

import orjson
import pyarrow as pa

from deckcheck.batch.files import Decoded
from deckcheck.batch.recheck import Rechecker
from deckcheck.batch.spec import BatchSpec
from deckcheck.batch.summary import Outcome, Summary
from deckcheck.data import DEFAULT_DATA_DIR, Data, DataSource
from deckcheck.encoding import Encoding, NotText, decoded_text
from deckcheck.errors import InvalidInput

CHUNK_ROWS = 2000
_FIELDS: list[pa.Field[Any]] = [
    pa.field("line", pa.int64()),
    pa.field("status", pa.string()),  # legal, illegal or error
    pa.field("legal", pa.bool_()),  # null on an error
    pa.field("penalty", pa.string()),
    pa.field("legal_before", pa.bool_()),  # null without a previous list, and on an error
    pa.field("newly_illegal", pa.bool_()),
    pa.field("verdict", pa.string()),  # legal, illegal, newly_illegal or still_illegal; null on an error
    pa.field("fields", pa.string()),  # the row's own fields as a JSON object; null where it has none
    pa.field("codes", pa.list_(pa.string())),  # the rule code of each violation, in the report's order
    pa.field("causes", pa.list_(pa.int64())),  # of a newly illegal deck: the cards the list change caught
    pa.field("result", pa.string()),  # the result line, as `deckcheck recheck` writes it
]
RESULTS = pa.schema(_FIELDS)


def recheck_partition(
    table: Any, spec: BatchSpec, *, first_line: int = 1, data_dir: Path | None = None, updates_dir: Path | None = None
) -> Any:
    """The results of every row of `table` (a pyarrow Table, or a pandas DataFrame, answered in kind), the rows
    numbered from `first_line`, with the `id` column first as given. The data (the package's own, or those under
    `data_dir`, with the updates folder `updates_dir` over them) load once per process."""
    frame = not isinstance(table, pa.Table)
    arrow = pa.Table.from_pandas(table, preserve_index=False) if frame else table
    results, _summary = check_table(arrow, checker_for(spec, _source(data_dir, updates_dir)), first_line)
    return results.to_pandas() if frame else results


@lru_cache(maxsize=2)
def data_for(source: DataSource | None) -> Data:
    """The package's own data, or those `source` names, loaded once per process."""
    return (source or DataSource()).load()


def _source(data_dir: Path | None, updates_dir: Path | None) -> DataSource | None:
    if data_dir is None and updates_dir is None:
        return None
    return DataSource(data_dir or DEFAULT_DATA_DIR, updates_dir)


@lru_cache(maxsize=4)
def checker_for(spec: BatchSpec, source: DataSource | None) -> Rechecker:
    """The checker of a recheck's settings, made once per process."""
    data = data_for(source)
    return Rechecker(data, spec.setup(data))


def check_table(table: pa.Table, checker: Rechecker, first_line: int) -> tuple[pa.Table, Summary]:
    """The results table of `table`'s rows, numbered from `first_line`, and their summary."""
    id_type = id_type_of(table.schema)
    summary = Summary()
    parts = [results_table(first_line, [], id_type)]
    for first, batch in _batches(table, first_line):
        outcomes, part = checker.summed(first, list(lines_of(batch)))
        parts.append(results_table(first, outcomes, id_type))
        summary.merge(part)
    return pa.concat_tables(parts), summary


def id_type_of(schema: pa.Schema, where: str = "") -> pa.DataType:
    """The type of the results' `id` column for a table of decks (`where` it is, for the error): the table's own,
    but text for ids given as bytes, which are read as text (`lines_of`)."""
    if "id" not in schema.names:
        raise InvalidInput(f"{where}a table of decks needs an `id` column; this one has {', '.join(schema.names)}")
    id_type: pa.DataType = schema.field("id").type
    return pa.string() if _is_bytes(id_type) else id_type


def check_lines(lines: list[bytes], checker: Rechecker, first_line: int) -> tuple[pa.Table, Summary]:
    """The results table of NDJSON lines numbered from `first_line`, and their summary. Ids may be strings or
    whole numbers in NDJSON: the table's `id` column is a string, a number's in decimal (`result` keeps its type)."""
    outcomes, summary = checker.summed(first_line, lines)
    return results_table(first_line, outcomes, pa.string()), summary


def _batches(table: pa.Table, first_line: int) -> Iterator[tuple[int, pa.RecordBatch]]:
    first = first_line
    for batch in table.to_batches(max_chunksize=CHUNK_ROWS):
        yield first, batch
        first += batch.num_rows


def lines_of(batch: pa.RecordBatch) -> Iterator[bytes | Decoded]:
    """Each row as the NDJSON line of its non-null fields; a row with a cell of bytes read as Shift_JIS (CP932)
    comes as `Decoded`, so the summary counts it."""
    schema = batch.schema
    if set(schema.names) == {"id", "ydke"} and not any(_is_bytes(kind) for kind in schema.types):
        # The common store: no nesting to clean.
        for deck_id, link in zip(batch.column("id").to_pylist(), batch.column("ydke").to_pylist(), strict=True):
            yield orjson.dumps({k: v for k, v in (("id", deck_id), ("ydke", link)) if v is not None})
        return
    for row in batch.to_pylist():
        read: list[Encoding] = []
        line = orjson.dumps(_present(row), default=partial(_as_text, read))
        yield Decoded(line, "cp932") if "cp932" in read else line


def _is_bytes(kind: pa.DataType) -> bool:
    return bool(pa.types.is_binary(kind) or pa.types.is_large_binary(kind) or pa.types.is_fixed_size_binary(kind))


def _as_text(read: list[Encoding], value: Any) -> str:
    """A value JSON has no type for (a decimal) as its text; bytes read as the desk reads a file, UTF-8 else
    Shift_JIS (CP932), the encoding added to `read` (bytes neither reads are UTF-8 with U+FFFD for what is not)."""
    if not isinstance(value, bytes):
        return str(value)
    try:
        text, encoding = decoded_text(value)
    except NotText:
        return value.decode("utf-8", "replace")
    read.append(encoding)
    return text


def _present(value: Any) -> Any:
    """`value` without the null fields of its objects, at every depth: a null column is a field not given."""
    if isinstance(value, dict):
        return {key: _present(item) for key, item in value.items() if item is not None}
    if isinstance(value, list):
        return [_present(item) for item in value]
    return value


def results_table(first: int, outcomes: list[tuple[bytes, Outcome]], id_type: pa.DataType) -> pa.Table:
    """The rows of `results_schema(id_type)` of lines numbered from `first`, a column at a time."""
    text_ids = pa.types.is_string(id_type) or pa.types.is_large_string(id_type)
    told = [outcome for _line, outcome in outcomes]
    ids = [outcome.id for outcome in told]
    columns: dict[str, Any] = {
        "id": [str(i) if isinstance(i, int) else i for i in ids] if text_ids else ids,
        "line": range(first, first + len(told)),
        "status": [outcome.status for outcome in told],
        "legal": [None if outcome.status == "error" else outcome.status == "legal" for outcome in told],
        "penalty": [outcome.penalty for outcome in told],
        "legal_before": [outcome.legal_before for outcome in told],
        "newly_illegal": [None if outcome.legal_before is None else outcome.newly_illegal for outcome in told],
        "verdict": [outcome.verdict for outcome in told],
        "fields": [None if outcome.fields is None else orjson.dumps(outcome.fields).decode() for outcome in told],
        "codes": [outcome.codes for outcome in told],
        "causes": [outcome.causes for outcome in told],
        # The line's bytes as they are, without its end, checked as UTF-8 once for the whole column.
        "result": pa.array([line[:-1] for line, _outcome in outcomes], type=pa.binary()).cast(pa.string()),
    }
    return pa.table(columns, schema=results_schema(id_type))


def results_schema(id_type: pa.DataType) -> pa.Schema:
    """An `id` column of `id_type`, then RESULTS."""
    return pa.schema([pa.field("id", id_type), *RESULTS])
