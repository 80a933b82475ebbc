// The registration desk's page: event settings, checks of a submitted deck or of a deck against its Deck Roster
// Sheet by POST /v1/validate, the verdict, and a queue of the checks made. The service is stateless, so what the
// desk keeps (settings, queue, language) lives in this browser's localStorage.
//
// This module wires the page's elements to the others, which the browser loads by their relative imports (there
// is no build step): common.js (elements, storage keys, errors, dates), words.js (the page's words in both
// languages), settings.js (the event's settings and lists), currency.js (how current the data are for the event),
// reading.js (a deck in any form, files, QR codes and the camera), shape.js (what is wrong with the shape of a JSON
// deck or a ydke link, in words), checks.js (the checks sent to the API), verdict.js (the verdict), queue.js (the
// checks made), catalogue.js (what each code is, in words), paper.js (a paper list photographed or opened, and read
// by the API), review.js (what it read, reviewed before the check) and picture.js (its picture), sheet.js (the
// registration sheet printed), and for judges clock.js (the round clock and time-limit rulings) and assessor.js
// (penalties). Connected to an event (event.js), the desk registers at it and lists every desk's players, and a
// judge checks a player's deck against their registration (deckchecks.js).

import {$} from "./common.js";
import {applyWords, switchLanguage, t} from "./words.js";
import {fillBanlists, loadBanlists, readSettings, saveSettings} from "./settings.js";
import {cameraOn, startCamera, stopCamera} from "./reading.js";
import {checkRefused, checkRoster, checkScanned, checkSubmission, closeCheck, guard, openFile, scanPicture}
  from "./checks.js";
import {redrawVerdict, showNotice, verdictOpen} from "./verdict.js";
import {clearQueue, exportQueue, renderQueue} from "./queue.js";
import {drawClock, startClock} from "./clock.js";
import {loadInfractions, startAssessor} from "./assessor.js";
import {closePaper, openPaper, photoOn, readPaper, shoot, startPhoto, stopPhoto} from "./paper.js";
import {redrawRead} from "./review.js";
import {printSheet} from "./sheet.js";
import {dataVersion, keepCurrent, loadHealth} from "./currency.js";
import {drawEvent, eventInfo, listPlayers, startEvent} from "./event.js";
import {checkDeck, drawChosen, photographedCode, pickPlayer} from "./deckchecks.js";

/** Set the page in its language: its own words, the lists, the queue, the verdict shown and the judge's tools. */
function applyLanguage() {
  applyWords();
  fillBanlists();
  renderQueue();
  redrawVerdict();
  drawClock();
  redrawRead();
  drawEvent();
  drawChosen();
  listPlayers();
  loadInfractions().then(renderQueue); // the catalogue in the page's language: the queue names what it found by it
}

let refreshing = null; // the refresh under way, which a second asks for meanwhile joins

/** Ask the service how current its data are; when their version changed, load the lists again too. */
function refreshData() {
  refreshing ??= (async () => {
    const before = dataVersion();
    if (!(await loadHealth())) return; // nothing new
    if (before && dataVersion() !== before) await loadBanlists($("event-banlist").value);
    else fillBanlists();
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

/** Clear the player: the next check is the next player's. */
function clearPlayer() {
  $("player").value = "";
  $("player-name").value = "";
  $("player").focus();
}

// While the verdict covers the page, keys typed with no field to take them are a code from the USB scanner (it
// types the code, then Enter): they go into #scan, the first replacing what it held, and are shown on the verdict;
// Enter checks the code (during a check it is refused, and kept). So the next deck is scanned without closing the
// verdict, and a code scanned while a check runs is never lost nor added to the last one. Enter with nothing typed
// checks a deck refused during the last check, if there is one.
let typing = false; // keys have gone into #scan since the verdict last checked or refused a code
document.addEventListener("keydown", (event) => {
  // Keys for the verdict only: not the Enter in #scan that has just opened it.
  if (!verdictOpen() || !(event.target === document.body || $("verdict").contains(event.target))) return;
  if (event.isComposing || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.key.length === 1 && event.key !== " ") {
    event.preventDefault();
    $("scan").value = (typing ? $("scan").value : "") + event.key;
    typing = true;
    showNotice(t("typed", $("scan").value), false);
  } else if (event.key === "Enter" && (typing || !event.target.closest("button"))) {
    event.preventDefault();
    if (!typing) checkRefused();
    else {
      typing = false;
      checkSubmission("scan");
    }
  }
});

/** Close the verdict, or stop the check it says is running; what was typed meanwhile stays in #scan. */
function closeOrStop() {
  typing = false;
  closeCheck();
}

// Tab goes round the dialog: from its last control (閉じる) back to the dialog itself, its first stop, and Shift+Tab
// the other way. The page under it is inert; past the last control the browser would move the focus to its toolbar.
$("verdict").addEventListener("keydown", (event) => {
  if (event.key !== "Tab") return;
  const [from, to] = event.shiftKey ? [$("verdict"), $("verdict-close")] : [$("verdict-close"), $("verdict")];
  if (event.target === from) {
    event.preventDefault();
    to.focus({preventScroll: true});
  }
});

const ctrlEnter = (event) => event.key === "Enter" && (event.ctrlKey || event.metaKey);

$("lang").addEventListener("click", () => {
  switchLanguage();
  applyLanguage();
});
for (const id of ["event-date", "event-banlist", "default-language", "protectors-used", "protectors-opaque",
  "protectors-uniform"]) {
  $(id).addEventListener("change", saveSettings);
}
$("event-date").addEventListener("input", saveSettings);
$("event-format").addEventListener("change", async () => {
  $("default-language").value = $("event-format").value === "tcg" ? "en" : "ja"; // what the format allows
  await loadBanlists($("event-banlist").value);
  saveSettings();
});
$("scan").addEventListener("keydown", (event) => {
  // A USB scanner types the code and Enter; isComposing: Enter that ends a Japanese input conversion is not one.
  if (event.key === "Enter" && !event.isComposing) {
    event.preventDefault();
    checkSubmission("scan");
  }
});
$("submission").addEventListener("keydown", (event) => {
  if (ctrlEnter(event)) {
    event.preventDefault();
    checkSubmission("submission");
  }
});
for (const id of ["roster-registered", "roster-presented"]) {
  $(id).addEventListener("keydown", (event) => {
    if (ctrlEnter(event)) {
      event.preventDefault();
      checkRoster();
    }
  });
}
$("check").addEventListener("click", () => {
  checkSubmission(!$("submission").value.trim() && $("scan").value.trim() ? "scan" : "submission");
});
$("roster-check").addEventListener("click", () => checkRoster());
$("player-clear").addEventListener("click", clearPlayer);
$("submission-file").addEventListener("change", (event) => {
  const [file] = event.target.files;
  event.target.value = ""; // the same file may be chosen again
  if (file) guard(() => openFile(file, $("submission")), $("submission"));
});
$("qr-file").addEventListener("change", (event) => {
  const [file] = event.target.files;
  event.target.value = "";
  if (file) guard(() => scanPicture(file), $("scan"));
});
$("camera").addEventListener("click", () => guard(() => startCamera(checkScanned), $("scan")));
$("camera-stop").addEventListener("click", stopCamera);
$("paper-read").addEventListener("click", () => ($("paper").hidden ? openPaper() : closePaper()));
$("paper-close").addEventListener("click", closePaper);
$("paper-camera").addEventListener("click", () => guard(startPhoto, $("paper-file")));
$("paper-shoot").addEventListener("click", () => guard(shoot, $("paper-file")));
$("paper-camera-stop").addEventListener("click", stopPhoto);
for (const id of ["paper-file", "paper-capture"]) {
  $(id).addEventListener("change", (event) => {
    const [file] = event.target.files;
    event.target.value = ""; // the same file may be chosen again
    if (file) guard(() => readPaper(file), event.target);
  });
}
$("sheet-print").addEventListener("click", () => guard(printSheet, $("submission")));
$("verdict-close").addEventListener("click", closeOrStop);
$("dc-check").addEventListener("click", () => checkDeck());
$("dc-presented").addEventListener("keydown", (event) => {
  if (ctrlEnter(event)) {
    event.preventDefault();
    checkDeck();
  }
});
$("dc-qr").addEventListener("change", (event) => {
  const [file] = event.target.files;
  event.target.value = "";
  if (file) guard(() => photographedCode(file), $("dc-presented"));
});
$("print").addEventListener("click", () => print());
$("queue-export").addEventListener("click", exportQueue);
$("queue-clear").addEventListener("click", clearQueue);
document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape") return;
  if (cameraOn()) stopCamera();
  else if (photoOn()) stopPhoto();
  else if (verdictOpen()) closeOrStop();
});

// A file dropped anywhere is opened: into the roster field it was dropped on, else as a submission.
document.addEventListener("dragover", (event) => {
  if (event.dataTransfer.types.includes("Files")) event.preventDefault();
});
document.addEventListener("drop", (event) => {
  const [file] = event.dataTransfer.files;
  if (!file) return; // text dragged into a field: the browser's own drop
  event.preventDefault();
  const target = event.target.closest?.("#roster textarea") ?? $("submission");
  guard(() => openFile(file, target), target);
});

// The camera needs getUserMedia, which browsers give only to pages served over https or from localhost.
$("camera").hidden = !navigator.mediaDevices?.getUserMedia;
const chosen = readSettings();
startClock();
startAssessor();
applyLanguage();
await Promise.all([loadHealth(), loadBanlists(chosen)]);
fillBanlists();
// Connected to an event, the settings are the event's: its format's lists, its list chosen.
await startEvent(pickPlayer, () => loadBanlists(eventInfo().banlist ?? ""));
keepCurrent(refreshData);
