"""What the `deckcheck` command writes for people: its own words in Japanese or English, tables aligned by display
width, and a quiet end when the reader of standard output goes away."""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Callable, Sequence
from typing import IO, Literal, NoReturn

from rich.console import Console, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from deckcheck.rules.judging import TEXTS

# The exit status of every command: 0 done (and every deck legal), 1 some deck illegal, 2 a usage or input error,
# 3 a recheck that could not be carried to its end (on Dask, a partition every worker that ran it died running).
EXIT_OK, EXIT_ILLEGAL, EXIT_ERROR, EXIT_FAILED = 0, 1, 2, 3
# The exit status of a command whose output pipe was closed early: what a shell reports for a process SIGPIPE ended
# (128 + 13), as it does for cat, grep or git in `… | head -1`, and apart from this command's 0, 1 and 2.
EXIT_CLOSED_PIPE = 141
TABLE_WIDTH = 80  # the width of a table written anywhere but a terminal
NAME_WIDTH = 40  # the widest a left-justified column (card names) grows; past it, names wrap
_INDENT = "  "

# The command's own words, (English, Japanese); rule codes and citations stay as they are in both languages.
_WORDS: dict[str, tuple[str, str]] = {
    "legal": ("legal", "使用可能"),
    "illegal": ("illegal", "使用不可"),
    "no_list": ("no list", "制限なし"),
    "report": (
        "{file}: {verdict}{penalty} ({banlist}, {date}; main {main}, extra {extra}, side {side})",
        "{file}: {verdict}{penalty}（{banlist}、{date}、メイン {main}枚・エクストラ {extra}枚・サイド {side}枚）",
    ),
    "lines": (" (line {lines})", "（{lines}行目）"),
    "separator": (", ", "、"),
    "main": ("main", "メイン"),
    "extra": ("extra", "エクストラ"),
    "side": ("side", "サイド"),
    "roster": ("roster", "デッキ記入シート"),
    "recheck": (
        "recheck against {banlist} on {date} in {seconds:.1f} s",
        "{banlist}（{date}）で再チェック：{seconds:.1f}秒",
    ),
    "decks": ("decks", "デッキ"),
    "errors": ("errors", "エラー"),
    "newly_illegal": ("newly illegal since {banlist}", "{banlist}から新たに使用不可"),
    "still_illegal": ("still illegal (under {banlist} too)", "引き続き使用不可（{banlist}でも）"),
    "newly_by_card": ("newly illegal by card", "新たに使用不可にしたカード"),
    "contact_report": ("decks to contact ({count:,}): {path}", "連絡が必要なデッキ（{count:,}件）：{path}"),
    "contact_lines": (
        "decks to contact ({count:,}): the lines of {where} whose verdict is not legal; --report FILE.csv lists them",
        "連絡が必要なデッキ（{count:,}件）：{where}の verdict が legal でない行。--report FILE.csv で一覧にできます",
    ),
    "standard_output": ("standard output", "標準出力"),
    "read_as_cp932": (" (read as Shift_JIS)", "（Shift_JISとして読み込み）"),
    # the columns and words of the CSV of decks to contact
    "column_line": ("line", "行"),
    "column_id": ("id", "ID"),
    "column_verdict": ("verdict", "判定"),
    "column_penalty": ("penalty", "ペナルティ"),
    "column_causes": ("causes", "理由"),
    "column_cards": ("cards", "カード"),
    "column_other_fields": ("other fields", "その他の項目"),
    "verdict_newly_illegal": ("newly illegal", "新たに使用不可"),
    "verdict_still_illegal": ("still illegal", "引き続き使用不可"),
    "verdict_not_read": ("not read", "読み込めず"),
    "rechecking": ("rechecking", "再チェック中"),
    "per_second": ("{rate} decks/s", "{rate}デッキ/秒"),
    "remaining": ("ETA {time}", "残り {time}"),
    "changes": ("{old} → {new}: {count} change{s}", "{old} → {new}：{count}件の変更"),
    "forbidden": ("forbidden", "禁止"),
    "limited": ("limited", "制限"),
    "semi_limited": ("semi-limited", "準制限"),
    "unlimited": ("unlimited", "制限解除"),
    # deckcheck data
    "data_checked": (
        "{folder}: good ({cards} cards, {lists} lists with the data beneath)",
        "{folder}：問題なし（カード{cards}枚・リスト{lists}件）",
    ),
    "data_written": ("{folder}: wrote {files}", "{folder}：{files}を書き込みました"),
    "data_taken": (
        "{service} serves it: data version {version}, after {seconds} s",
        "{service}が反映しました：データバージョン {version}（{seconds}秒後）",
    ),
    "data_reloaded": (
        "{service} loaded the data again: data version {version}, after {seconds} s",
        "{service}がデータを読み込み直しました：データバージョン {version}（{seconds}秒後）",
    ),
    "data_refused": (
        "{service} could not load it and still serves data version {version}: {problem}",
        "{service}は読み込めず、データバージョン {version} のままです：{problem}",
    ),
    "data_not_taken": (
        "{service} has not taken it within {seconds} s (it looks at the folder every {poll} s): see its log",
        "{service}は{seconds}秒以内に反映していません（フォルダーの確認は{poll}秒ごと）：ログを確認してください",
    ),
    "data_service_gone": ("{service} stopped serving meanwhile", "{service}はその間に停止しました"),
    "data_unwatched": (
        "no service on this machine watches {folder}: `deckcheck serve` reads it when DECKCHECK_UPDATES_DIR names it, "
        "or when nothing is set and it is the default folder",
        "このマシンで{folder}を監視しているサービスはありません：`deckcheck serve`は、"
        "DECKCHECK_UPDATES_DIRで指定したとき、または何も指定せず既定のフォルダーのときに読み込みます",
    ),
    "data_dry_run": ("dry run: nothing written", "試行のみ：何も書き込んでいません"),
    "data_cards": (
        "{count} cards to {path} ({provisional} under provisional passcodes)",
        "{count}枚を{path}に追加（仮のパスコード{provisional}枚）",
    ),
    "data_skipped": ("  not a card: {passcode} {name}: {why}", "  カードではありません：{passcode} {name}：{why}"),
    "data_kept": (
        "{count} cards are known already and kept as they are (--replace to take the file's): {first}",
        "既にある{count}枚はそのままです（--replaceで置き換え）：{first}",
    ),
    "data_superseded": (
        "{path}: provisional cards now under their final passcodes are taken out ({left} left)",
        "{path}：正式なパスコードで追加されたカードの仮のものを削除（残り{left}枚）",
    ),
    "data_status": (
        "data {data_dir} (version {data_version}), updates {updates_dir}: {cards} cards, {banlists} lists; on {date}:",
        "データ {data_dir}（バージョン {data_version}）、更新 {updates_dir}："
        "カード{cards}枚・リスト{banlists}件。{date}時点：",
    ),
    "data_in_force": ("  in force: {name} (from {effective_from})", "  施行中：{name}（{effective_from}から）"),
    "data_in_force_stale": (
        "  in force: {name} (from {effective_from}); a newer list may be in force",
        "  施行中：{name}（{effective_from}から）：新しいリストが施行されている可能性があります",
    ),
    "data_due": ("next due {day}", "次の改定予定 {day}"),
    "data_stale": ("a newer list may be in force", "新しいリストが施行されている可能性があります"),
    "data_current": ("current", "最新"),
    "data_printings": ("card printings complete until {day}", "カードの発売情報は{day}まで"),
    "data_printings_missing": (
        "card printings complete until {day}: cards printed since may be missing",
        "カードの発売情報は{day}まで：それ以降のカードは未収録の可能性があります",
    ),
    "data_update": (
        "update {time}: {action} {source} (sha256 {sha256}): {command}",
        "更新 {time}：{action} {source}（sha256 {sha256}）：{command}",
    ),
}
# The penalties' names as the judge's answers give them (rules/judging.toml), in lower case inside English sentences.
_WORDS |= {name: (en.lower(), ja) for name, (en, ja) in TEXTS["penalties"].items()}


def words(lang: str, key: str, **fields: object) -> str:
    """The command's text `key` in `lang` (ja, else en), its fields filled in."""
    return _WORDS[key][lang == "ja"].format(**fields)


def table(
    rows: Sequence[Sequence[str | Padding]],
    justify: Sequence[Literal["left", "right"]],
    out: IO[str],
) -> list[str]:
    """The lines of a table for `out`, indented, its columns aligned by display width (East Asian wide characters
    take two columns). Left-justified columns wrap what is wider than NAME_WIDTH, or than the width of `out` allows
    (a terminal's, else TABLE_WIDTH), onto more lines, at spaces or else anywhere in a word, so nothing is cut;
    right-justified ones never wrap."""
    grid = Table(box=None, show_header=False, pad_edge=False, padding=(0, 1))
    for how in justify:
        right = how == "right"
        grid.add_column(justify=how, overflow="fold", no_wrap=right, max_width=None if right else NAME_WIDTH)
    for row in rows:
        grid.add_row(*(Text(cell) if isinstance(cell, str) else cell for cell in row))
    return [_INDENT + line.rstrip() for line in _render(grid, _width(out) - len(_INDENT)).splitlines()]


def indented(text: str) -> Padding:
    """A table cell set in by two columns, wrapped lines too."""
    return Padding(Text(text), (0, 0, 0, 2))


def _render(renderable: RenderableType, width: int) -> str:
    console = Console(
        file=io.StringIO(), width=width, force_terminal=False, color_system=None, highlight=False, emoji=False
    )
    with console.capture() as captured:
        console.print(renderable)
    return captured.get()


def _width(out: IO[str]) -> int:
    """The columns of the terminal `out` writes to (a new terminal may say 0), else TABLE_WIDTH."""
    try:
        return (os.get_terminal_size(out.fileno()).columns if out.isatty() else 0) or TABLE_WIDTH
    except (OSError, ValueError):  # io.UnsupportedOperation is both
        return TABLE_WIDTH


def exit_quietly_on_closed_pipe(run: Callable[[], int]) -> NoReturn:
    """Exit with `run()`'s code; if the reader of standard output (or error) has gone, as `… | head -1` does, end at
    once with EXIT_CLOSED_PIPE and no traceback (the recipe of Python's note on SIGPIPE in the signal module)."""
    try:
        code = run()
        sys.stdout.flush()  # the last buffered output fails here, not at exit where nothing could catch it
    except BrokenPipeError:
        # Python flushes both streams again at exit: let that write go nowhere rather than fail once more.
        devnull = os.open(os.devnull, os.O_WRONLY)
        for stream in (sys.stdout, sys.stderr):
            os.dup2(devnull, stream.fileno())
        sys.exit(EXIT_CLOSED_PIPE)
    sys.exit(code)
