"""`deckcheck recheck --dask ADDRESS`: a store of decks rechecked on a Dask cluster (batch/cluster.py), the results
written as one file per partition under --out, the summary line beside them as `_summary.json`, and with --report
the CSV of the decks to contact, read back from the results. A recheck the cluster cannot end (a partition every
worker that ran it died running), or a local cluster that cannot start, writes nothing and exits EXIT_FAILED."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import IO

import orjson

from deckcheck.batch import BatchSpec, Rechecker, Summary
from deckcheck.cli.contacts import ContactList
from deckcheck.cli.output import EXIT_ERROR, EXIT_FAILED
from deckcheck.config import Settings
from deckcheck.data import DEFAULT_DATA_DIR
from deckcheck.data.loader import data_files
from deckcheck.errors import Error, Unavailable


def run_on_dask(
    args: argparse.Namespace, settings: Settings, checker: Rechecker, spec: BatchSpec, stderr: IO[str]
) -> Summary | int:
    """Carry out the recheck on the cluster; its summary, or the exit status once the reason it could not be is
    printed."""
    if args.out is None:
        print(
            "deckcheck: --dask writes the results to a folder: give --out FOLDER (a path or an fsspec URL)", file=stderr
        )
        return EXIT_ERROR
    if args.workers is not None:
        print("deckcheck: --workers sets processes here; with --dask, the cluster's workers check", file=stderr)
        return EXIT_ERROR
    try:
        from deckcheck.batch.cluster import (  # noqa: PLC0415
            Job,
            connect,
            not_legal_lines,
            recheck_on_dask,
            write_summary,
        )
    except ImportError as exc:
        print(f"deckcheck: --dask needs the dask extra (pip install 'deckcheck[dask]'): {exc}", file=stderr)
        return EXIT_ERROR
    data = checker.data
    # The workers load the bundled data of their own install, unless these data are not only the bundle's.
    source = settings.data_source()
    bundled = settings.data_dir == DEFAULT_DATA_DIR and not data_files(source.folders()[1:])
    own = None if bundled else source
    job = Job(spec, args.out, data.digest, args.results_format or "parquet", own)
    try:
        with connect(args.dask) as client:
            summary = recheck_on_dask(client, args.paths, job)
        where = write_summary(args.out, orjson.dumps(summary.as_json(checker.setup, data)) + b"\n")
        if args.report:
            with ContactList(Path(args.report), args.lang) as contacts:
                for line in not_legal_lines(args.out, job.results):
                    contacts.add(line)
                contacts.write()
    except Unavailable as exc:  # a cluster that did not start, a partition whose every worker died
        print(f"deckcheck: {exc}. Nothing is written to {args.out}: no results, no summary.", file=stderr)
        return EXIT_FAILED
    except (Error, OSError, ValueError, TypeError) as exc:
        # A worker's failure too: other data than the command's, a list its data lack, a column of no deck.
        print(f"deckcheck: {exc}", file=stderr)
        return EXIT_ERROR
    print(f"deckcheck: results in {args.out}, summary in {where}", file=stderr)
    return summary
