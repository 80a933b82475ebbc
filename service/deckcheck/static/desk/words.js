// The page's own words in Japanese and English, the language chosen (kept in this browser), and penalties in words.

import {$, KEYS} from "./common.js";

// The page's own words. Messages, rules and remedies come from the API in the language asked for.
export const WORDS = {
  ja: {
    title: "deckcheck 受付", settings: "大会設定", date: "大会の日付", format: "フォーマット",
    banlist: "リミットレギュレーション", in_force: "日付の時点で施行中のリスト", in_force_named: "施行中：{0}",
    default_language: "カードの言語（指定のないもの）", lang_ja: "日本語", lang_en: "英語", lang_ko: "韓国語",
    lang_fr: "フランス語", lang_de: "ドイツ語", lang_it: "イタリア語", lang_es: "スペイン語", lang_pt: "ポルトガル語",
    protectors: "スリーブ", protectors_used: "スリーブを使用", protectors_opaque: "裏面が不透明",
    protectors_uniform: "すべて同じスリーブ", submit_heading: "提出されたデッキを確認", player: "プレイヤー名・番号",
    scan: "QRコード・バーコードリーダー、ydke リンク（Enter で確認）",
    submission: "デッキリスト（.ydk・ydke・JSON・テキスト。Ctrl+Enter で確認）",
    drop_hint: "ファイルやQRコードの画像はこのページにドロップしても読み込めます。", check: "確認する",
    open_file: "ファイルを開く", qr_file: "QRコードの画像", camera: "カメラで読み取る",
    camera_stop: "読み取りをやめる（Esc）", roster_heading: "デッキ記入シートとの照合",
    roster_registered: "デッキ記入シート（登録されたリスト）", roster_presented: "提示されたデッキ", duel: "デュエル",
    phase: "確認の時点", phase_registration: "受付", phase_between_duels: "デュエルの間", phase_during_duel: "デュエル中",
    roster_check: "照合する", queue_heading: "確認の記録", queue_export: "CSV に書き出す", queue_clear: "記録を消す",
    queue_confirm: "確認の記録をすべて消しますか？", col_time: "時刻", col_player: "プレイヤー", col_verdict: "判定",
    col_penalty: "罰則", col_codes: "内容", source: "確認したリスト",
    verdict_hint: "次のコードはこのまま読み取れます。Esc で閉じると確認した欄に戻り、内容が選択されているので、" +
      "貼り付けると置き換わります。",
    print: "結果を印刷", close: "閉じる（Esc）", switch_to: "English",
    legal: "合法", illegal: "違反", error: "確認できませんでした", no_penalty: "罰則なし",
    next_duel: "次のデュエル", current_duel: "このデュエル", penalty_with_time: "{0}（{1}）",
    caution: "注意", warning: "警告", duel_forfeiture: "デュエルの敗北", match_forfeiture: "マッチの敗北",
    disqualification: "失格", total_disqualification: "失格（賞品剥奪）",
    rule: "規定", penalty: "罰則", where: "行", lines: "{0}行目", roster_lines: "記入シート {0}行目",
    section_main: "メインデッキ", section_extra: "エクストラデッキ", section_side: "サイドデッキ",
    section_null: "デッキ全体", missing: "不足", unregistered: "未記入", registered: "登録", presented: "提示",
    counts: "メイン {0}枚・エクストラ {1}枚・サイド {2}枚", duel_n: "第{0}デュエル",
    checking: "確認しています…", unreachable: "サービスに接続できません（{0}）。",
    refused: "サービスがこの内容を受け付けませんでした（HTTP {0}）。", bad_answer: "サービスから読めない答えが届きました（HTTP {0}）。",
    at_line: "{0}行目：{1}", empty: "デッキが入力されていません。", bad_json: "JSON として読めません：{0}",
    too_big: "ファイルが大きすぎます（1 MiB まで）。", no_qr: "画像に QR コードが見つかりません。",
    bad_image: "画像を読めません。", camera_failed: "カメラを使えません：{0}", lists_failed: "リストを読み込めません。",
    player_named: "プレイヤー：{0}", player_none: "プレイヤー名なし", stop_check: "確認をやめる（Esc）",
    no_deck: "このコードにはデッキがありません。", code_holds: "読み取った内容：{0}", typed: "読み取り欄：{0}",
    in_registered: "登録したリスト", in_presented: "提示されたデッキ", in_list: "{0} {1}",
    busy_kept: "前の確認がまだ終わっていません。いま出されたデッキは確認せずに欄に残しました。" +
      "結果が出てから Enter をもう一度押してください。",
    kept_waiting: "確認中に出されたデッキはまだ確認していません（欄に残してあります）。Enter で確認します。",
    judge_heading: "審判", clock_heading: "ラウンドの時間（1マッチ40分）", clock_start: "開始",
    clock_pause: "一時停止", clock_reset: "40分に戻す", clock_interval: "インターバル（最大3分）",
    clock_call: "時間切れの判定へ", clock_over: "時間切れです。下の手順で判定してください（TR 2.C）。",
    interval_left: "インターバル 残り {0}（最大3分、TR 2.C）", interval_over: "インターバルの3分が過ぎました。",
    tl_heading: "時間切れの判定（TR 2.C）", tl_wins_1: "プレイヤー1の勝利数", tl_wins_2: "プレイヤー2の勝利数", tl_in_duel: "デュエル中に時間切れ",
    tl_turn_winner: "そのターンの終了までの勝者", tl_none: "—", tl_extra_turns: "エキストラターン終了時のライフ",
    tl_sudden_death: "サドンデスで増減した直後のライフ", tl_extra_duel: "エキストラデュエル（4ターン）終了時のライフ",
    tl_extra_sudden_death: "エキストラデュエルのサドンデスで増減した直後のライフ", tl_rule: "判定する",
    tl_next: "次の手順：{0}", tl_decided: "マッチの勝者：プレイヤー{0}",
    tl_pair: "ライフポイントは両方のプレイヤーの分を入力してください。",
    assess_heading: "罰則の判定", assess_code: "違反", assess_intentional: "故意か",
    assess_minutes: "遅刻した時間（分）", assess_remedied: "カードを元に戻せるか", assess_decisive: "ゲームの結果を明確に左右するか",
    assess_influenced: "マッチの結果に影響したか", assess_timing: "発生した時点", assess_decided: "マッチの勝者が既に決まっている",
    assess_prior: "この大会で同じ違反を受けた回数", assess_go: "判定する", unknown: "—", yes: "はい", no: "いいえ",
    timing_during_duel: "デュエル中", timing_between_duels: "デュエルの間", timing_between_matches: "マッチの間",
    kind_deck: "デッキの違反（PR 3）", kind_conduct: "プレイの違反（PR 4〜10）", remedy: "対応",
    infractions_failed: "違反の一覧を読み込めません。",
    player_clear: "次のプレイヤー（名前を消す）",
    player_hint: "名前はそのプレイヤーのデュエルの間ずっと残ります。次のプレイヤーの前に消してください。",
    legend: "TR＝大会規定、PR＝大会罰則規定。続く番号はその項目です（TR 2.C は大会規定の 2.C）。",
    notes_toggle: "適用した規定についての注記（{0}件）",
    loose_heading: "表記ゆれとして読んだカード（記入シートと照らしてください）",
    tl_life_points: "ライフポイント", tl_player_1: "プレイヤー1",
    tl_player_2: "プレイヤー2", infraction_option: "{0}（{1}）", assess_recorded: "この判定は確認の記録に残しました。",
    list_sep: "、", col_date: "大会の日付", col_format: "フォーマット", col_banlist: "リミットレギュレーション",
    col_kind: "種類", col_messages: "違反の内容", col_cards: "カード", col_deck: "デッキ（ydke）",
    kind_submission: "提出されたデッキ", kind_roster: "デッキ記入シートとの照合", kind_assessment: "罰則の判定",
    assessed: "罰則の判定",
  },
  en: {
    title: "deckcheck desk", settings: "Event settings", date: "Event date", format: "Format",
    banlist: "Forbidden/Limited list", in_force: "The list in force on the date", in_force_named: "In force: {0}",
    default_language: "Card language (where none is given)", lang_ja: "Japanese", lang_en: "English",
    lang_ko: "Korean", lang_fr: "French", lang_de: "German", lang_it: "Italian", lang_es: "Spanish",
    lang_pt: "Portuguese", protectors: "Sleeves", protectors_used: "Sleeved", protectors_opaque: "Opaque backs",
    protectors_uniform: "All sleeves identical", submit_heading: "Check a submitted deck", player: "Player name or number",
    scan: "QR code or barcode scanner, ydke link (Enter checks)",
    submission: "Deck list (.ydk, ydke, JSON or text; Ctrl+Enter checks)",
    drop_hint: "Files and pictures of QR codes can also be dropped onto this page.", check: "Check",
    open_file: "Open a file", qr_file: "Picture of a QR code", camera: "Scan with the camera",
    camera_stop: "Stop scanning (Esc)", roster_heading: "Deck check against the Deck Roster Sheet",
    roster_registered: "Deck Roster Sheet (registered list)", roster_presented: "Presented deck", duel: "Duel",
    phase: "When", phase_registration: "Registration", phase_between_duels: "Between duels",
    phase_during_duel: "During a duel", roster_check: "Compare", queue_heading: "Checks made",
    queue_export: "Export CSV", queue_clear: "Clear", queue_confirm: "Delete every check recorded?", col_time: "Time",
    col_player: "Player", col_verdict: "Verdict", col_penalty: "Penalty", col_codes: "Problems", source: "Checked list",
    verdict_hint: "Scan the next code right away. Esc returns to the field checked, its content selected" +
      ": pasting replaces it.",
    print: "Print result", close: "Close (Esc)",
    switch_to: "日本語", legal: "Legal", illegal: "Illegal", error: "Could not check", no_penalty: "No penalty",
    next_duel: "next duel", current_duel: "this duel", penalty_with_time: "{0} ({1})",
    caution: "Caution", warning: "Warning", duel_forfeiture: "Duel forfeiture", match_forfeiture: "Match forfeiture",
    disqualification: "Disqualification", total_disqualification: "Disqualification (prizes forfeited)",
    rule: "Rule", penalty: "Penalty", where: "Lines", lines: "line {0}", roster_lines: "roster line {0}",
    section_main: "Main deck", section_extra: "Extra deck", section_side: "Side deck", section_null: "Whole deck",
    missing: "Missing", unregistered: "Not registered", registered: "Registered", presented: "Presented",
    counts: "main {0}, extra {1}, side {2}", duel_n: "duel {0}", checking: "Checking…",
    unreachable: "The service cannot be reached ({0}).", refused: "The service refused this (HTTP {0}).",
    bad_answer: "The service sent an answer that cannot be read (HTTP {0}).", at_line: "line {0}: {1}",
    empty: "No deck was entered.", bad_json: "Not readable as JSON: {0}", too_big: "The file is too large (1 MiB at most).",
    no_qr: "No QR code was found in the picture.", bad_image: "The picture cannot be read.",
    camera_failed: "The camera cannot be used: {0}", lists_failed: "The lists cannot be loaded.",
    player_named: "Player: {0}", player_none: "No player given", stop_check: "Stop checking (Esc)",
    no_deck: "This code holds no deck.", code_holds: "The code reads: {0}", typed: "Scanner field: {0}",
    in_registered: "Registered list", in_presented: "Presented deck", in_list: "{0}, {1}",
    busy_kept: "The previous check has not finished. The deck just given was not checked and is kept in its " +
      "field: press Enter again once the result is shown.",
    kept_waiting: "The deck given during this check is not checked yet (it is kept in its field). Enter checks it.",
    judge_heading: "Judge", clock_heading: "Round clock (40 minutes a match)", clock_start: "Start",
    clock_pause: "Pause", clock_reset: "Back to 40:00", clock_interval: "Interval (3 minutes at most)",
    clock_call: "Rule on time", clock_over: "Time is up. Rule with the steps below (TR 2.C).",
    interval_left: "Interval: {0} left (3 minutes at most, TR 2.C)", interval_over: "The 3-minute interval is over.",
    tl_heading: "Time-limit ruling (TR 2.C)", tl_wins_1: "Duels won by player 1", tl_wins_2: "Duels won by player 2", tl_in_duel: "Time ran out during a duel",
    tl_turn_winner: "Winner by the end of that turn", tl_none: "—", tl_extra_turns: "Life points after the extra turns",
    tl_sudden_death: "Life points right after the change in sudden death",
    tl_extra_duel: "Life points after the extra duel's 4 turns",
    tl_extra_sudden_death: "Life points right after the change in the extra duel's sudden death", tl_rule: "Rule",
    tl_next: "Next: {0}", tl_decided: "Match winner: player {0}",
    tl_pair: "Give the life points of both players.",
    assess_heading: "Penalty assessor", assess_code: "Infraction", assess_intentional: "Intentional?",
    assess_minutes: "Minutes late", assess_remedied: "Can the card be put back?",
    assess_decisive: "Would it decide the duel?", assess_influenced: "Did it influence the match's outcome?",
    assess_timing: "When it happened", assess_decided: "The match's winner was already decided",
    assess_prior: "Times the player already received it in this tournament", assess_go: "Assess", unknown: "—",
    yes: "Yes", no: "No", timing_during_duel: "During a duel", timing_between_duels: "Between duels",
    timing_between_matches: "Between matches", kind_deck: "Deck (PR 3)", kind_conduct: "Conduct (PR 4–10)",
    remedy: "Remedy", infractions_failed: "The infractions cannot be loaded.",
    player_clear: "Next player (clear the name)",
    player_hint: "The name stays through all of the player's duels: clear it before the next player.",
    legend: "TR = tournament rules, PR = penalty regulations; the number after them is the item (TR 2.C: the " +
      "tournament rules, item 2.C).",
    notes_toggle: "Notes on the rules applied ({0})",
    loose_heading: "Names read loosely (check them against the sheet)",
    tl_life_points: "Life points", tl_player_1: "Player 1",
    tl_player_2: "Player 2", infraction_option: "{0} ({1})", assess_recorded: "This assessment is recorded in the checks made.",
    list_sep: "; ", col_date: "Event date", col_format: "Format", col_banlist: "Forbidden/Limited list",
    col_kind: "Kind", col_messages: "Messages", col_cards: "Cards", col_deck: "Deck (ydke)",
    kind_submission: "Submitted deck", kind_roster: "Deck Roster Sheet check", kind_assessment: "Penalty assessment",
    assessed: "Assessed",
  },
};

export let lang = localStorage.getItem(KEYS.lang) === "en" ? "en" : "ja";

/** The page's word `key` in its language, with {0}, {1}… filled in; a key it has no word for (a penalty a later
 * service names) as itself. */
export function t(key, ...fields) {
  return (WORDS[lang][key] ?? key).replace(/\{(\d)\}/g, (_, i) => fields[Number(i)]);
}

/** A penalty and the duel it applies to, in words. */
export function penaltyWords(penalty, appliesTo) {
  if (!penalty) return t("no_penalty");
  return appliesTo ? t("penalty_with_time", t(penalty), t(appliesTo)) : t(penalty);
}

/** Change to the other language, and keep the choice. */
export function switchLanguage() {
  lang = lang === "ja" ? "en" : "ja";
  localStorage.setItem(KEYS.lang, lang);
}

/** Set the page's own words in its language: every element marked data-i18n, and the button to the other one. */
export function applyWords() {
  document.documentElement.lang = lang;
  for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  $("lang").textContent = t("switch_to");
  $("lang").lang = lang === "ja" ? "en" : "ja";
}
