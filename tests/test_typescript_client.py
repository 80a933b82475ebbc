"""The TypeScript client (clients/typescript, issue 38 part 1) as a site meets it: built from the committed OpenAPI
document, its node tests pass against the running service, and `npm pack` gives a package that a fresh project
installs and type-checks against strictly, the `<deck-check>` element (part 2) among it. The element's script the
service serves is the package's bundle, byte for byte. The element at work in a browser is
tests/test_deck_check_element.py."""

from __future__ import annotations

import json
import shutil
import tarfile
from pathlib import Path

import pytest

from tests.node import installed, run

pytestmark = pytest.mark.packaging

ROOT = Path(__file__).resolve().parent.parent
HERE = ROOT / "clients" / "typescript"
# A site's own file: the client, its error and the verdict's types, as the package's README shows them.
SITE = """import { DeckcheckClient, DeckcheckError, type Verdict, type Violation } from "deckcheck-client";

export async function shown(ydke: string): Promise<string[]> {
  const deckcheck = new DeckcheckClient({ baseUrl: "https://deckcheck.example.org", lang: "ja" });
  try {
    const verdict: Verdict = await deckcheck.validateLink(ydke, { date: "2026-12-01", format: "ocg" });
    return verdict.violations.map((violation: Violation) => `${violation.code} ${violation.penalty}`);
  } catch (error) {
    if (error instanceof DeckcheckError) return [`${error.status} ${error.code ?? ""}`];
    throw error;
  }
}

export async function listed(text: string): Promise<boolean> {
  const deckcheck = new DeckcheckClient({ baseUrl: "https://deckcheck.example.org" });
  return (await deckcheck.validate({ text, format: "tcg" })).legal;
}
"""
# A site's page script: the element registered, given a deck by its property, and its verdict event heard.
PAGE = """import { defineDeckCheck, type DeckCheckElement } from "deckcheck-client/element";

defineDeckCheck({ api: "https://deckcheck.example.org" });
const element: DeckCheckElement | null = document.querySelector("deck-check");
if (element !== null) {
  element.deck = { main: [{ passcode: 55144522, count: 1 }] };
  element.addEventListener("deckcheck-verdict", (event) => {
    document.title = event.detail.verdict.legal ? "legal" : String(event.detail.verdict.violations.length);
  });
}
"""
SITE_CONFIG = {
    "compilerOptions": {
        "strict": True,
        "noEmit": True,
        "target": "ES2022",
        "module": "NodeNext",
        "moduleResolution": "NodeNext",
        "lib": ["ES2022", "DOM"],
        "types": [],
        "exactOptionalPropertyTypes": True,
        "noUncheckedIndexedAccess": True,
    },
    "files": ["site.ts", "page.ts"],
}


@pytest.fixture(scope="module")
def built() -> Path:
    """The client built (npm ci first when its tools are missing or older than the lock file)."""
    installed(HERE)
    build = run(["npm", "run", "build"], HERE, timeout=300)
    assert build.returncode == 0, f"npm run build failed:\n{build.stdout}{build.stderr}"
    return HERE / "dist"


def test_the_node_tests_pass_against_the_running_service(built: Path, base_url: str) -> None:
    done = run(["npm", "test"], HERE, timeout=300, DECKCHECK_URL=base_url)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "# fail 0" in done.stdout
    assert "# pass 7" in done.stdout


def test_the_package_installs_and_type_checks_in_a_fresh_project(built: Path, tmp_path: Path) -> None:
    # The package as built above (its prepack build skipped: another test may be reading dist meanwhile).
    packed = run(["npm", "pack", "--ignore-scripts", "--pack-destination", str(tmp_path)], HERE, timeout=120)
    assert packed.returncode == 0, packed.stderr
    (tarball,) = tmp_path.glob("deckcheck-client-*.tgz")
    with tarfile.open(tarball) as archive:
        names = sorted(archive.getnames())
        manifest = json.loads(archive.extractfile("package/package.json").read())  # type: ignore[union-attr]
        licence = archive.extractfile("package/LICENSE").read()  # type: ignore[union-attr]
    assert (manifest["license"], licence) == ("MIT", (ROOT / "LICENSE").read_bytes())
    assert names == [
        "package/LICENSE",
        "package/README.md",
        "package/dist/api.d.ts",
        "package/dist/api.js",
        "package/dist/deck-check.js",
        "package/dist/element.d.ts",
        "package/dist/element.js",
        "package/dist/index.d.ts",
        "package/dist/index.js",
        "package/dist/style.d.ts",
        "package/dist/style.js",
        "package/dist/view.d.ts",
        "package/dist/view.js",
        "package/package.json",
    ]
    site = tmp_path / "site"
    site.mkdir()
    (site / "package.json").write_text('{"name": "a-site", "private": true, "type": "module"}\n', encoding="utf-8")
    added = run(["npm", "install", "--no-audit", "--no-fund", "--prefer-offline", str(tarball)], site, timeout=300)
    assert added.returncode == 0, added.stderr
    (site / "site.ts").write_text(SITE, encoding="utf-8")
    (site / "page.ts").write_text(PAGE, encoding="utf-8")
    (site / "tsconfig.json").write_text(json.dumps(SITE_CONFIG), encoding="utf-8")
    checked = run([str(HERE / "node_modules" / ".bin" / "tsc"), "-p", "tsconfig.json"], site, timeout=300)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    (site / "site.ts").write_text(SITE.replace("violation.penalty", "violation.punishment"), encoding="utf-8")
    refused = run([str(HERE / "node_modules" / ".bin" / "tsc"), "-p", "tsconfig.json"], site, timeout=300)
    assert "punishment" in refused.stdout


def test_the_service_serves_the_packages_bundle_of_the_element(built: Path) -> None:
    served = ROOT / "service" / "deckcheck" / "static" / "elements" / "deck-check.js"
    assert served.read_bytes() == (built / "deck-check.js").read_bytes(), (
        "service/deckcheck/static/elements/deck-check.js is not the bundle of clients/typescript: "
        "run `npm run element` there"
    )


def test_npm_pack_on_a_fresh_clone_builds_the_package_first(built: Path, tmp_path: Path) -> None:
    """A clone has no dist: `npm pack` builds it (prepack) rather than make a package that fails with TS2307."""
    clone = tmp_path / "clients" / "typescript"
    shutil.copytree(HERE, clone, ignore=shutil.ignore_patterns("node_modules", "dist"))
    (clone / "node_modules").symlink_to(HERE / "node_modules")
    (tmp_path / "openapi").mkdir()
    shutil.copy(ROOT / "openapi" / "openapi.json", tmp_path / "openapi" / "openapi.json")
    shutil.copy(ROOT / "LICENSE", tmp_path / "LICENSE")  # a clone's root, whose licence the package carries
    packed = run(["npm", "pack", "--pack-destination", str(tmp_path)], clone, timeout=300)
    assert packed.returncode == 0, packed.stdout + packed.stderr
    (tarball,) = tmp_path.glob("deckcheck-client-*.tgz")
    with tarfile.open(tarball) as archive:
        names = set(archive.getnames())
    assert {"package/LICENSE", "package/dist/index.js", "package/dist/index.d.ts", "package/dist/deck-check.js"} <= (
        names
    )
