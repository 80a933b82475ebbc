"""Hypothesis profiles: `full`, the examples CI runs, and `fast`, a tenth of them for the loop of a change
(`scripts/check --fast` runs `--hypothesis-profile=fast`). A property test states its budget as `examples(n)`,
the examples it runs in full, so that one profile scales every test."""

from __future__ import annotations

from hypothesis import settings

FULL = 100  # Hypothesis' own default number of examples
settings.register_profile("full", max_examples=FULL)
settings.register_profile("fast", max_examples=FULL // 10)
settings.load_profile("full")


def examples(full: int) -> int:
    """The examples a property test runs under the profile in force: `full` in CI, a tenth of it (at least 2) in
    the fast loop."""
    return max(2, full * settings().max_examples // FULL) if full > 2 else full
