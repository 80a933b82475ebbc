"""The API as a TypeScript site sees it: openapi-typescript turns the committed OpenAPI document into types, and tsc
checks strictly a small client written against them (tests/typescript/client.ts), and rejects a file that reads what
the document does not declare. The tools are pinned in tests/typescript/package-lock.json; `npm ci` installs them
when they are missing or older than the lock file."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.node import installed, run

pytestmark = pytest.mark.packaging

ROOT = Path(__file__).resolve().parent.parent
OPENAPI = ROOT / "openapi" / "openapi.json"  # the committed document; tests/test_openapi.py holds it to the app's
HERE = ROOT / "tests" / "typescript"
BIN = HERE / "node_modules" / ".bin"
# A site reading a field the verdict does not have: tsc must refuse it.
WRONG = """import type { paths } from "deckcheck-api";

type Verdict = paths["/v1/validate"]["post"]["responses"][200]["content"]["application/json"];

export function shown(verdict: Verdict): boolean {
  return verdict.legal && verdict.verdict === "legal";
}
"""


@pytest.fixture(scope="module")
def types(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The types openapi-typescript writes for openapi/openapi.json, the tools installed first if need be."""
    installed(HERE)
    out = tmp_path_factory.mktemp("typescript") / "api.d.ts"
    generated = run([str(BIN / "openapi-typescript"), str(OPENAPI), "--output", str(out)], HERE, timeout=120)
    assert generated.returncode == 0, f"openapi-typescript failed:\n{generated.stdout}{generated.stderr}"
    return out


def typecheck(types: Path, folder: Path, *files: Path) -> subprocess.CompletedProcess[str]:
    """`tsc --noEmit` on `files` with tests/typescript/tsconfig.json, the generated types as "deckcheck-api"."""
    config = folder / "tsconfig.json"
    settings = {
        "extends": str(HERE / "tsconfig.json"),
        "compilerOptions": {"paths": {"deckcheck-api": [str(types)]}},
        "files": [str(file) for file in files],
    }
    config.write_text(json.dumps(settings), encoding="utf-8")
    return run([str(BIN / "tsc"), "--noEmit", "--pretty", "false", "-p", str(config)], HERE, timeout=120)


def test_the_client_a_site_writes_type_checks_against_the_document(types: Path, tmp_path: Path) -> None:
    checked = typecheck(types, tmp_path, HERE / "client.ts")
    assert checked.returncode == 0, f"tsc rejects tests/typescript/client.ts:\n{checked.stdout}{checked.stderr}"


def test_reading_a_field_the_verdict_lacks_does_not_type_check(types: Path, tmp_path: Path) -> None:
    wrong = tmp_path / "wrong.ts"
    wrong.write_text(WRONG, encoding="utf-8")
    checked = typecheck(types, tmp_path, wrong)
    assert checked.returncode != 0, "tsc accepted a read of a field the verdict does not have"
    errors = checked.stdout.splitlines()
    assert len(errors) == 1, checked.stdout
    assert "wrong.ts(6,35): error TS2339: Property 'verdict' does not exist on type" in errors[0]
