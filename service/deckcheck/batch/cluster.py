"""Rechecks past one machine: a store of decks in Parquet or NDJSON files (local paths or any fsspec URL) rechecked
on a Dask cluster, each partition by the columnar path in a worker, the results written as one Parquet (or NDJSON)
file per partition, and the partitions' summaries merged in order into the summary a local run gives.

A partition is a row group of a Parquet file or a block of about BLOCK_BYTES of an NDJSON file, cut at line ends
(a folder's other files are not decks here: deck files such as .ydk are for a local run).
Lines are numbered across the whole store in the order of the sources (a folder's files sorted by name), as a local
run numbers them: Parquet row groups know their rows from the file's footer; NDJSON blocks are counted first, by
the workers. Every partition is read and written in chunks, so a worker holds one chunk of results at a time (and
one block of an NDJSON file). Each partition's file is written under `_unfinished/` and moved beside the others
only once every partition is done; a recheck that fails leaves no results file at all (nor a summary). Needs the
`dask` extra.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import accumulate
from typing import Any, Literal

import fsspec
import pyarrow as pa
import pyarrow.parquet as pq
from dask.distributed import Client, Future, KilledWorker, LocalCluster
from fsspec.utils import read_block

from deckcheck.batch.partition import (
    CHUNK_ROWS,
    check_lines,
    check_table,
    checker_for,
    data_for,
    id_type_of,
    results_schema,
)
from deckcheck.batch.spec import BatchSpec
from deckcheck.batch.summary import Summary
from deckcheck.collector import collector_paused
from deckcheck.data import DataSource
from deckcheck.errors import BrokenData, InvalidInput, Unavailable

BLOCK_BYTES = 32 * 1024 * 1024
PARQUET_SUFFIXES = (".parquet", ".pq")
NDJSON_SUFFIXES = (".ndjson", ".jsonl")
ResultsFormat = Literal["parquet", "ndjson"]
UNFINISHED = "_unfinished"  # the folder of results files until every partition's is done (readers skip _ names)


@dataclass(frozen=True, slots=True)
class Part:
    """One partition of the store: a row group of a Parquet file, or a byte block of an NDJSON file."""

    url: str
    row_group: int | None = None
    offset: int = 0
    length: int = 0


@dataclass(frozen=True, slots=True)
class Job:
    """What every partition's task needs besides its partition: the settings, where the data and the results go."""

    spec: BatchSpec
    out: str  # a folder URL
    digest: str  # of the data the client judges by: every worker must hold the same
    results: ResultsFormat = "parquet"
    source: DataSource | None = None  # None: each worker's package's own data
    block_bytes: int = BLOCK_BYTES


class DataMismatch(BrokenData):
    """A worker holds other card data or lists than the client: its verdicts would not be the client's."""


class PartitionLost(Unavailable):
    """Every worker that ran a partition died running it (Dask's KilledWorker), so the recheck cannot be ended."""

    def __init__(self, parts: Sequence[Part], index: int, lines: range | None, lost: KilledWorker) -> None:
        part = parts[index]
        if part.row_group is None:
            where = f"{part.url}, bytes {part.offset:,} to {part.offset + part.length - 1:,}"
        else:
            groups = sum(other.url == part.url for other in parts)
            where = f"{part.url}, row group {part.row_group + 1} of {groups}"
        if lines is not None:
            where += f"; lines {lines.start} to {lines.stop - 1}" if lines else "; no lines"
        super().__init__(
            f"partition {index + 1} of {len(parts)} ({where}) could not be checked: the {lost.allowed_failures + 1} "
            f"workers that ran it died (the last {lost.last_worker.address}). A worker dies when it passes its "
            "memory limit, runs its machine out of memory or is killed: its log says which"
        )


class ClusterNotStarted(Unavailable):
    """A local cluster that could not start, named by its address (`local:N`) and Dask's reason at the root of the
    failure: a worker process that died or hung while it started (a preload or plugin of the Dask configuration that
    fails, a machine out of memory), or a scheduler that found no port."""

    def __init__(self, address: str, failure: BaseException) -> None:
        while failure.__cause__ is not None:
            failure = failure.__cause__
        super().__init__(f"the Dask cluster {address} could not start: {str(failure).rstrip('.') or repr(failure)}")


@contextmanager
def connect(address: str) -> Iterator[Client]:
    """A client of the cluster at `address`, or of a LocalCluster for `local` (one worker process a core) or
    `local:N` (N of them, ClusterNotStarted if they cannot start), closed with the LocalCluster when done."""
    if address != "local" and not address.startswith("local:"):
        with Client(address) as client:
            yield client
        return
    count = address.partition(":")[2]
    if count and not (count.isdigit() and int(count) >= 1):
        raise InvalidInput(f"--dask local:N takes a number of worker processes of at least 1, not {count!r}")
    workers = int(count) if count else None
    try:
        # No dashboard; the scheduler's HTTP server (health, metrics) on a free port rather than Dask's default
        # 8787, which a second local cluster on the machine would find taken.
        cluster = LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            scheduler_kwargs={"dashboard_address": ":0"},
        )
    except Exception as exc:  # Dask raises what it met, wrapped in its own words: the reason is at the root
        raise ClusterNotStarted(address, exc) from exc
    with cluster, Client(cluster) as client:
        yield client


def write_summary(out: str, line: bytes) -> str:
    """Write the summary line beside the results, as `_summary.json` (a name readers of a Parquet dataset skip);
    return its URL."""
    fs, folder = fsspec.core.url_to_fs(out)
    target = f"{folder.rstrip('/')}/_summary.json"
    with fs.open(target, "wb") as f:
        f.write(line)
    return str(fs.unstrip_protocol(target))


def recheck_on_dask(client: Client, sources: Sequence[str], job: Job) -> Summary:
    """Recheck every deck of `sources` on the cluster, write one results file per partition under `job.out`
    (part-00000.parquet …) and return the merged summary."""
    parts = plan(sources, job.block_bytes)
    counts = _gathered(client, client.map(count_rows, parts, pure=False), parts)
    firsts = list(accumulate(counts, initial=1))[: len(parts)]
    fs, folder = fsspec.core.url_to_fs(job.out)
    if fs.exists(folder) and fs.ls(folder):
        raise InvalidInput(f"{job.out} holds files already: the results go to a new or empty folder")
    folder = folder.rstrip("/")
    fs.makedirs(f"{folder}/{UNFINISHED}", exist_ok=True)
    width = max(5, len(str(len(parts) - 1)))  # names that sort in the order of the partitions
    names = [f"part-{index:0{width}d}.{job.results}" for index in range(len(parts))]
    lines = [range(first, first + count) for first, count in zip(firsts, counts, strict=True)]
    moved: list[str] = []
    try:
        merged = Summary()
        for summary in _gathered(
            client, client.map(check_part, parts, firsts, names, job=job, pure=False), parts, lines
        ):
            merged.merge(summary)  # in the order of the partitions
        for name in names:
            fs.mv(f"{folder}/{UNFINISHED}/{name}", f"{folder}/{name}")
            moved.append(f"{folder}/{name}")
    except BaseException:
        for path in moved:  # a part of the results is no result
            fs.rm(path)
        raise
    finally:
        # A worker still writing a file of a recheck that failed writes it nowhere once its folder is gone (on a
        # local disk; an object store may yet get a straggler's file under _unfinished/, which readers skip).
        if fs.exists(f"{folder}/{UNFINISHED}"):
            fs.rm(f"{folder}/{UNFINISHED}", recursive=True)
    return merged


def _gathered(
    client: Client, futures: list[Future[Any]], parts: list[Part], lines: list[range] | None = None
) -> list[Any]:
    """The results of one task per partition, in order; at the first failure the tasks not yet run are dropped,
    and a partition whose every worker died is a PartitionLost."""
    try:
        return list(client.gather(futures))
    except BaseException as exc:
        client.cancel(futures)
        if isinstance(exc, KilledWorker):
            index = [future.key for future in futures].index(exc.task)
            raise PartitionLost(parts, index, None if lines is None else lines[index], exc) from exc
        raise


def not_legal_lines(out: str, results: ResultsFormat) -> Iterator[bytes]:
    """The result and error lines of the decks that are not legal (and, from NDJSON files, the others too: only
    reading a line tells), in input order, read back a chunk at a time from the results files a recheck wrote under
    `out` (for the list of decks to contact)."""
    fs, folder = fsspec.core.url_to_fs(out)
    for name in sorted(fs.glob(f"{folder.rstrip('/')}/part-*.{results}")):
        with fs.open(name, "rb") as f:
            if results == "ndjson":
                yield from f
                continue
            for batch in pq.ParquetFile(f).iter_batches(batch_size=CHUNK_ROWS, columns=["status", "result"]):
                for status, line in zip(batch.column(0).to_pylist(), batch.column(1).to_pylist(), strict=True):
                    if status != "legal":
                        yield str(line).encode()


def plan(sources: Sequence[str], block_bytes: int = BLOCK_BYTES) -> list[Part]:
    """The partitions of the store, in order: each source a file or a folder of .parquet and .ndjson files."""
    parts: list[Part] = []
    for url in _files(sources):
        fs, path = fsspec.core.url_to_fs(url)
        if url.lower().endswith(PARQUET_SUFFIXES):
            with fs.open(path, "rb") as f:
                groups = pq.ParquetFile(f).metadata.num_row_groups
            parts += [Part(url, row_group=group) for group in range(groups)]
        else:
            size = fs.size(path)
            parts += [Part(url, offset=offset, length=block_bytes) for offset in range(0, size, block_bytes)]
    return parts


def _files(sources: Sequence[str]) -> Iterator[str]:
    for source in sources:
        fs, path = fsspec.core.url_to_fs(source)
        if not fs.isdir(path):
            if not source.lower().endswith(PARQUET_SUFFIXES + NDJSON_SUFFIXES):
                raise InvalidInput(f"{source}: a store of decks is .parquet or .ndjson (.jsonl) files")
            yield source
            continue
        for found in sorted(fs.find(path), key=lambda found: found.split("/")):  # as a local run orders a folder
            if found.lower().endswith(PARQUET_SUFFIXES + NDJSON_SUFFIXES):
                yield fs.unstrip_protocol(found)


def count_rows(part: Part) -> int:
    """The decks of one partition."""
    with _reading(part) as (_id_type, source):
        if isinstance(source, bytes):
            return len(_block_lines(source))
        assert part.row_group is not None  # a Parquet part is one row group
        return int(source.metadata.row_group(part.row_group).num_rows)


def check_part(part: Part, first: int, name: str, *, job: Job) -> Summary:
    """Recheck one partition in a worker, write its results file `name` under the results' UNFINISHED folder (with
    the schema of the results even when the partition holds no deck), and return its summary."""
    digest = data_for(job.source).digest
    if digest != job.digest:
        raise DataMismatch(f"a worker judges by data {digest[:16]}, the client by {job.digest[:16]}")
    checker = checker_for(job.spec, job.source)
    fs, folder = fsspec.core.url_to_fs(job.out)
    summary = Summary()
    with _reading(part) as (id_type, source), fs.open(f"{folder.rstrip('/')}/{UNFINISHED}/{name}", "wb") as sink:
        writer = pq.ParquetWriter(sink, results_schema(id_type)) if job.results == "parquet" else None
        try:
            for chunk_first, rows in _chunks(part, source, first):
                with collector_paused():
                    if isinstance(rows, pa.Table):
                        table, part_summary = check_table(rows, checker, chunk_first)
                    else:
                        table, part_summary = check_lines(rows, checker, chunk_first)
                summary.merge(part_summary)
                if writer is None:
                    sink.write(b"".join(f"{line}\n".encode() for line in table.column("result").to_pylist()))
                else:
                    writer.write_table(table)
        finally:
            if writer is not None:
                writer.close()
    return summary


@contextmanager
def _reading(part: Part) -> Iterator[tuple[pa.DataType, pq.ParquetFile | bytes]]:
    """The partition's file opened once: the type of the results' `id` column (a Parquet store's own; a string for
    NDJSON, see check_lines) and the Parquet file, or the NDJSON block cut at line ends."""
    fs, path = fsspec.core.url_to_fs(part.url)
    with fs.open(path, "rb") as f:
        if part.row_group is None:
            yield pa.string(), read_block(f, part.offset, part.length, delimiter=b"\n")
        else:
            parquet = pq.ParquetFile(f)
            yield id_type_of(parquet.schema_arrow, f"{part.url}: "), parquet


def _chunks(part: Part, source: pq.ParquetFile | bytes, first: int) -> Iterator[tuple[int, pa.Table | list[bytes]]]:
    """The partition's rows in chunks of CHUNK_ROWS, each with the number of its first line."""
    if isinstance(source, bytes):
        lines = _block_lines(source)
        for start in range(0, len(lines), CHUNK_ROWS):
            yield first + start, lines[start : start + CHUNK_ROWS]
        return
    for batch in source.iter_batches(batch_size=CHUNK_ROWS, row_groups=[part.row_group]):
        yield first, pa.Table.from_batches([batch])
        first += batch.num_rows


def _block_lines(block: bytes) -> list[bytes]:
    """The lines of a block cut at line ends, as a local run reads them from the file (batch/files.py)."""
    lines = block.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return [line.rstrip(b"\r") for line in lines]
