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
