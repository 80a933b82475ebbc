"""Rechecks on Dask (batch/cluster.py, `deckcheck recheck --dask`) and `recheck_partition` (batch/partition.py):
every result line and the summary are the local CLI's, on a LocalCluster of two worker processes."""

from __future__ import annotations

import datetime as dt
import io
import re
import socket
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import dask
import orjson
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from dask.distributed import Client, LocalCluster

from bench.corpus import Corpus
from deckcheck import Data
from deckcheck.batch import BatchSpec
from deckcheck.batch.cluster import DataMismatch, Job, connect, plan, recheck_on_dask
from deckcheck.batch.partition import RESULTS, checker_for, recheck_partition, results_schema
from deckcheck.cli import run
from deckcheck.cli.output import EXIT_ERROR, EXIT_FAILED, EXIT_ILLEGAL, EXIT_UNCHECKED
from deckcheck.errors import InvalidInput

DECKS = 20_000
RECHECK = ["recheck", "--date", "2008-09-01", "--previous", "ocg-2008-03-01"]


def _rows(data: Data) -> list[dict[str, Any]]:
    """The corpus as rows of a store, one in a thousand broken: no link, a link that does not read; each with the
    organiser's own columns, a player and an email, and a table for every third (null for the others)."""
    rows: list[dict[str, Any]] = []
    for number, deck in enumerate(Corpus(data).decks(DECKS)):
        link: str | None = deck.ydke()
        if number % 1000 == 7:
            link = None if number % 2000 == 7 else "ydke://A!!"
        own = {"player": f"Player {number}", "email": f"p{number}@example.jp", "table": number if number % 3 else None}
        rows.append({"id": deck.id, "ydke": link, **own})
    return rows


@pytest.fixture(scope="module")
def store(data: Data, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The decks as Parquet in uneven row groups, and the same decks as NDJSON."""
    folder = tmp_path_factory.mktemp("store")
    rows = _rows(data)
    pq.write_table(pa.Table.from_pylist(rows), folder / "decks.parquet", row_group_size=3_000)
    lines = (orjson.dumps({k: v for k, v in row.items() if v is not None}) for row in rows)
    (folder / "decks.ndjson").write_bytes(b"\n".join(lines) + b"\n")
    return folder


@pytest.fixture(scope="module")
def local(store: Path) -> list[bytes]:
    """The local CLI's output on the NDJSON decks: a result line each, then the summary line."""
    out = store / "local.ndjson"
    # Some decks are illegal (1), some lines no deck to check (4).
    report = ["--report", str(store / "local.csv")]
    code = run([*RECHECK, "--out", str(out), *report, str(store / "decks.ndjson")], io.StringIO(), io.StringIO())
    assert code == EXIT_UNCHECKED | EXIT_ILLEGAL
    return out.read_bytes().splitlines()


@pytest.fixture(scope="module")
def client() -> Iterator[Client]:
    """A local cluster of two workers, started as `--dask local:2` starts it, while Dask's default port 8787 is taken
    (test_a_local_cluster_starts_while_dasks_default_port_is_taken reads the port it took instead)."""
    with ExitStack() as stack:
        with socket.socket() as taken:
            taken.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                taken.bind(("", 8787))
            except OSError:
                pass  # taken already, by another process: the case under test all the same
            else:
                taken.listen()
            started = stack.enter_context(connect("local:2"))
        assert len(started.scheduler_info()["workers"]) == 2
        yield started


def _results(folder: Path) -> pa.Table:
    return pa.concat_tables(pq.read_table(path) for path in sorted(folder.glob("part-*.parquet")))


@pytest.mark.slow
def test_the_cli_on_a_local_cluster_gives_the_local_results(client: Client, store: Path, local: list[bytes]) -> None:
    # The module's cluster, started by connect("local:2") as `--dask local:2` starts one: a second start would prove
    # nothing more about the results.
    out = store / "dask"
    stderr = io.StringIO()
    report = ["--report", str(store / "dask.csv")]
    address = str(client.scheduler_info()["address"])
    code = run(
        [*RECHECK, "--dask", address, "--out", str(out), *report, str(store / "decks.parquet")], io.StringIO(), stderr
    )
    assert code == EXIT_UNCHECKED | EXIT_ILLEGAL, stderr.getvalue()  # as the local recheck
    assert (store / "dask.csv").read_bytes() == (store / "local.csv").read_bytes()  # the decks to contact, alike
    results = _results(out)
    assert len(list(out.glob("part-*.parquet"))) == 7  # one a row group
    assert results.schema.names == ["id", *RESULTS.names]
    assert [str(line).encode() for line in results.column("result").to_pylist()] == local[:-1]
    assert (out / "_summary.json").read_bytes().rstrip(b"\n") == local[-1]
    assert results.column("line").to_pylist() == list(range(1, DECKS + 1))
    # The columns say what each result line says.
    for row in results.slice(0, 3_000).to_pylist():
        result = orjson.loads(row["result"])
        assert row["id"] == result["id"]
        if "error" in result:
            assert (row["status"], row["legal"], row["codes"]) == ("error", None, [])
            continue
        assert row["legal"] == result["legal"]
        assert row["status"] == ("legal" if result["legal"] else "illegal")
        assert row["penalty"] == result["penalty"]
        assert row["codes"] == [v["code"] for v in result["violations"]]
        assert (row["legal_before"], row["newly_illegal"]) == (result["legal_before"], result["newly_illegal"])
        assert (row["verdict"], orjson.loads(row["fields"])) == (result["verdict"], result["fields"])


def test_ndjson_blocks_and_ndjson_results(client: Client, store: Path, local: list[bytes], data: Data) -> None:
    """NDJSON cut into small blocks at line ends, numbered across blocks; NDJSON results; the summary merged."""
    out = store / "blocks"
    job = Job(BatchSpec(*_spec()), str(out), data.digest, "ndjson", block_bytes=700_000)
    sources = [str(store / "decks.ndjson")]
    assert len(plan(sources, job.block_bytes)) > 9
    summary = recheck_on_dask(client, sources, job)
    lines = b"".join(path.read_bytes() for path in sorted(out.glob("part-*.ndjson"))).splitlines()
    assert lines == local[:-1]
    checker_setup = BatchSpec(*_spec()).setup(data)
    assert orjson.dumps(summary.as_json(checker_setup, data)) == local[-1]


def _spec() -> tuple[Any, ...]:
    return dt.date(2008, 9, 1), None, "ocg-2008-03-01"


def test_workers_on_other_data_are_refused(client: Client, store: Path) -> None:
    job = Job(BatchSpec(*_spec()), str(store / "refused"), "0" * 64)
    with pytest.raises(DataMismatch, match="a worker judges by data"):
        recheck_on_dask(client, [str(store / "decks.parquet")], job)


def test_recheck_partition_on_tables_and_frames(data: Data) -> None:
    """The entry point for Spark and Ray: entries as nested columns with nulls for fields not given, ids as
    numbers, lines numbered from where the partition starts; the same result lines as the NDJSON lines of the rows'
    non-null fields. A pandas frame is answered with a frame."""
    deck = next(iter(Corpus(data).decks(1)))
    main = [{"passcode": p, "count": None, "language": None} for p in deck.main]
    rows = [
        {"id": 1, "main": main, "extra": [], "default_language": None},
        {"id": 2, "main": main[:30], "extra": [], "default_language": "en"},
        {
            "id": 3,
            "main": [{"passcode": 12345678, "count": 2, "language": "ja"}],
            "extra": [],
            "default_language": None,
        },
        {
            "id": 4,
            "main": main,
            "extra": [{"passcode": 83764718, "count": 1, "language": None}],
            "default_language": "x",
        },
    ]
    spec = BatchSpec(*_spec())
    table = recheck_partition(pa.Table.from_pylist(rows), spec, first_line=41)
    assert table.column("line").to_pylist() == [41, 42, 43, 44]
    assert table.column("id").to_pylist() == [1, 2, 3, 4]
    given = [orjson.dumps(_given(row)) for row in rows]
    expected, _summary = checker_for(spec, None).check_lines(41, given)
    assert [str(line).encode() for line in table.column("result").to_pylist()] == expected.splitlines()
    assert table.column("status").to_pylist() == ["legal", "illegal", "illegal", "error"]
    frame = recheck_partition(pd.DataFrame({"id": ["a"], "ydke": [deck.ydke()]}), spec)
    assert isinstance(frame, pd.DataFrame)
    assert list(frame["line"]) == [1]
    assert frame["result"][0] == checker_for(spec, None).check_lines(
        1, [orjson.dumps({"id": "a", "ydke": deck.ydke()})]
    )[0].decode().rstrip("\n")


def _given(value: Any) -> Any:
    """A row as the recheck line of its fields that are not null, at every depth."""
    if isinstance(value, dict):
        return {key: _given(item) for key, item in value.items() if item is not None}
    return [_given(item) for item in value] if isinstance(value, list) else value


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ([], "give --out FOLDER"),
        (["--out", "x", "--workers", "2"], "--workers sets processes here"),
    ],
)
def test_refusals(store: Path, extra: list[str], message: str) -> None:
    stderr = io.StringIO()
    code = run([*RECHECK, "--dask", "local:1", *extra, str(store / "decks.parquet")], io.StringIO(), stderr)
    assert code == EXIT_ERROR
    assert message in stderr.getvalue()


def test_results_format_belongs_to_dask(store: Path) -> None:
    stderr = io.StringIO()
    code = run([*RECHECK, "--results-format", "ndjson", str(store / "decks.ndjson")], io.StringIO(), stderr)
    assert code == EXIT_ERROR
    assert "--results-format is the form of the results files of --dask" in stderr.getvalue()


def test_folders_blocks_of_no_line_and_other_columns(client: Client, data: Data, tmp_path: Path) -> None:
    """A folder is read in the order a local run reads it (path by path, part by part); a block that holds no line
    still gets a readable results file; columns that are no field of a line are its own fields, carried as an NDJSON
    line's are; a null id is no id."""
    decks = [deck.line() for deck in Corpus(data, seed=5).decks(9)]
    store = tmp_path / "store"
    for name, lines in (("a/x.ndjson", decks[:3]), ("a-b/y.ndjson", decks[3:6]), ("B.ndjson", decks[6:])):
        (store / name).parent.mkdir(parents=True, exist_ok=True)
        (store / name).write_bytes(b"\r\n".join(lines))  # CRLF, and no line end at the end
    local = tmp_path / "local.ndjson"
    run([*RECHECK, "--out", str(local), str(store)], io.StringIO(), io.StringIO())
    job = Job(BatchSpec(*_spec()), str(tmp_path / "out"), data.digest, block_bytes=300)
    summary = recheck_on_dask(client, [str(store)], job)
    results = pq.read_table(tmp_path / "out")  # every part file, empty ones included, as one dataset
    assert [str(line).encode() for line in results.column("result").to_pylist()] == local.read_bytes().splitlines()[:-1]
    assert summary.lines == 9

    rows = [{"id": None, "ydke": "ydke://!!", "owner": "x"}, {"id": "b", "ydke": None, "owner": "y"}]
    with_owner = recheck_partition(pa.Table.from_pylist(rows), BatchSpec(*_spec()))
    plain = [{k: r[k] for k in ("id", "ydke")} for r in rows]
    without = recheck_partition(pa.Table.from_pylist(plain), BatchSpec(*_spec()))
    general = recheck_partition(pa.Table.from_pylist([{**r, "text": None} for r in plain]), BatchSpec(*_spec()))
    assert without.column("result").to_pylist() == general.column("result").to_pylist()
    assert "missing" in str(without.column("result")[0])
    checker = checker_for(BatchSpec(*_spec()), None)
    as_lines = [orjson.dumps({k: v for k, v in row.items() if v is not None}) for row in rows]
    by_engine = [checker.check(number, line)[0].decode().rstrip("\n") for number, line in enumerate(as_lines, 1)]
    assert with_owner.column("result").to_pylist() == by_engine
    assert with_owner.column("fields").to_pylist() == ['{"owner":"x"}', '{"owner":"y"}']
    assert without.column("fields").to_pylist() == [None, None]


def test_results_go_to_a_new_or_empty_folder(client: Client, data: Data, store: Path) -> None:
    job = Job(BatchSpec(*_spec()), str(store), data.digest)  # the store's own folder holds the decks
    with pytest.raises(InvalidInput, match="holds files already"):
        recheck_on_dask(client, [str(store / "decks.parquet")], job)


def test_a_local_cluster_of_no_worker_is_refused(store: Path) -> None:
    stderr = io.StringIO()
    code = run(
        [*RECHECK, "--dask", "local:0", "--out", str(store / "none"), str(store / "decks.parquet")],
        io.StringIO(),
        stderr,
    )
    assert code == EXIT_ERROR
    assert "at least 1" in stderr.getvalue()


def test_the_guide_spark_schema_is_the_results_schema() -> None:
    """The schema the Dask guide gives Spark's mapInArrow, in Spark's words, names the columns of the results in
    order."""
    guide = (Path(__file__).resolve().parent.parent / "docs" / "organisers" / "dask.md").read_text(encoding="utf-8")
    ddl = "".join(re.findall(r'^    "(.*)"$', guide.split("RESULTS_DDL = (\n", 1)[1].split("\n)", 1)[0], re.M))
    spark: dict[str, pa.DataType] = {"string": pa.string(), "long": pa.int64(), "boolean": pa.bool_()}
    spark |= {f"array<{name}>": pa.list_(arrow) for name, arrow in list(spark.items())}
    fields = [column.split(" ", 1) for column in ddl.split(", ")]
    assert pa.schema([pa.field(name, spark[kind]) for name, kind in fields]) == results_schema(pa.string())


@pytest.mark.slow
def test_a_partition_whose_workers_keep_dying_ends_the_recheck_in_words(tmp_path: Path) -> None:
    """A row group too large for a worker's memory: each worker that reads it passes its limit and is restarted by
    its nanny, until Dask gives the partition up (here after two, KilledWorker). The recheck ends with its own exit
    status and says which partition and why, and leaves neither results nor a summary, the partitions that were
    done included (it ended in KilledWorker's traceback, status 1, with partial results files)."""
    store = tmp_path / "store"
    store.mkdir()
    pq.write_table(pa.table({"id": ["a", "b", "c"], "ydke": ["ydke://!!!"] * 3}), store / "a.parquet")
    # 2,000 rows of one 600 KB text: 40 KB in the file (a dictionary of one value), 1.2 GB once read.
    text = pa.DictionaryArray.from_arrays(pa.array([0] * 2000, pa.int32()), pa.array(["x" * 600_000]))
    huge = pa.table({"id": [f"d{n}" for n in range(2000)], "text": text})
    pq.write_table(huge, store / "b.parquet", store_schema=False)  # read back as plain strings
    out, stderr = tmp_path / "out", io.StringIO()
    with (
        dask.config.set({"distributed.scheduler.allowed-failures": 1}),
        LocalCluster(  # type: ignore[no-untyped-call]  # distributed's constructors carry no types
            n_workers=2, threads_per_worker=1, memory_limit="500MB", dashboard_address=":0"
        ) as cluster,
    ):
        code = run(
            [*RECHECK, "--dask", cluster.scheduler_address, "--out", str(out), str(store)], io.StringIO(), stderr
        )
    assert code == EXIT_FAILED
    assert re.fullmatch(
        re.escape(f"deckcheck: partition 2 of 2 (file://{store / 'b.parquet'}, row group 1 of 1; lines 4 to 2003)")
        + r" could not be checked: the 2 workers that ran it died \(the last tcp://127\.0\.0\.1:\d+\)\. "
        + re.escape(
            "A worker dies when it passes its memory limit, runs its machine out of memory or is killed: its log "
            f"says which. Nothing is written to {out}: no results, no summary.\n"
        ),
        stderr.getvalue(),
    ), stderr.getvalue()
    assert sorted(out.rglob("*")) == []


def test_a_local_cluster_starts_while_dasks_default_port_is_taken(client: Client) -> None:
    """Two local clusters on one machine (two organisers' rechecks, or a Dask dashboard already open) do not meet on
    port 8787: the scheduler's HTTP server takes a free port, and no warning is raised (warnings are errors here,
    and the module's cluster, started while 8787 was taken, started without one)."""
    assert client.scheduler_info()["services"]["dashboard"] != 8787
