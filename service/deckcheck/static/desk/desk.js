// The registration desk's page: event settings, checks of a submitted deck or of a deck against its Deck Roster
// Sheet by POST /v1/validate, the verdict, and a queue of the checks made. The service is stateless, so what the
// desk keeps (settings, queue, language) lives in this browser's localStorage.
//
// This module wires the page's elements to the others, which the browser loads by their relative imports (there
// is no build step): common.js (elements, storage keys, errors, dates), words.js (the page's words in both
// languages), settings.js (the event's settings and lists), reading.js (a deck in any form, files, QR codes and
// the camera), checks.js (the checks sent to the API), verdict.js (the verdict) and queue.js (the checks made).

import {$} from "./common.js";
import {applyWords, switchLanguage} from "./words.js";
import {fillBanlists, loadBanlists, readSettings, saveSettings} from "./settings.js";
import {cameraOn, startCamera, stopCamera} from "./reading.js";
import {checkRoster, checkScanned, checkSubmission, guard, openFile, scanPicture} from "./checks.js";
import {closeVerdict, redrawVerdict} from "./verdict.js";
import {clearQueue, exportQueue, renderQueue} from "./queue.js";

/** Set the page in its language: its own words, the lists, the queue and the verdict shown. */
function applyLanguage() {
  applyWords();
  fillBanlists();
  renderQueue();
  redrawVerdict();
}

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
$("roster-check").addEventListener("click", checkRoster);
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
$("verdict-close").addEventListener("click", closeVerdict);
$("print").addEventListener("click", () => print());
$("queue-export").addEventListener("click", exportQueue);
$("queue-clear").addEventListener("click", clearQueue);
document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape") return;
  if (cameraOn()) stopCamera();
  else if (!$("verdict").hidden) closeVerdict();
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
applyLanguage();
await loadBanlists(chosen);
