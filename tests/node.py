"""Node.js tools for the tests of the TypeScript types and client: run one, and install a folder's tools from its
lock file when they are missing or older than it."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
from pathlib import Path

import pytest


def run(argv: list[str], cwd: Path, timeout: float, **env: str) -> subprocess.CompletedProcess[str]:
    """Run a Node.js tool in `cwd`, with `env` added to the environment; its output captured as text."""
    return subprocess.run(
        argv, cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False, env=os.environ | env
    )


def installed(folder: Path) -> None:
    """`npm ci` in `folder` unless its node_modules are as new as its package-lock.json; skip without Node.js. Test
    modules on other workers may use the same folder's tools (tests/typescript: the types and axe-core), so one
    installs at a time, under a lock, and the others then find the tools in place."""
    missing = [program for program in ("node", "npm") if shutil.which(program) is None]
    if missing:
        pytest.skip(f"{' and '.join(missing)} not found: install Node.js and npm (bash scripts/system-deps does)")
    marker = folder / "node_modules" / ".package-lock.json"  # npm writes it last when it installs
    with (folder / ".npm-install.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not marker.exists() or marker.stat().st_mtime < (folder / "package-lock.json").stat().st_mtime:
            done = run(["npm", "ci", "--no-audit", "--no-fund"], folder, timeout=600)
            assert done.returncode == 0, f"npm ci in {folder} failed:\n{done.stdout}{done.stderr}"
