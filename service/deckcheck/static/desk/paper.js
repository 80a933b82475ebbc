// Reading a paper deck list: the panel that opens for it, a photo taken with the camera (or, where the page may not
// use one, with the device's own camera through a file input), or a picture or PDF chosen, sent to POST
// /v1/decks/read; what it read is shown for review by review.js.

import {$, DeskError, post, refusalOf} from "./common.js";
import {lang, t} from "./words.js";
import {clearRead, showRead} from "./review.js";

const TYPES = ["image/png", "image/jpeg", "application/pdf"]; // what the service reads
const PHOTO_QUALITY = 0.92; // of the JPEG a photo is sent as
// The page's words for each refusal of a read, by status; the service's own reasons follow them.
const REFUSED = {413: "paper_too_big", 415: "paper_not_image", 422: "paper_unreadable", 503: "paper_busy",
  504: "paper_timeout"};

let stream = null; // the camera's, while it is on
let picture = null; // the blob: URL of the picture shown, or null

export const photoOn = () => stream !== null;

/** Open the panel, offering the camera where the page may use it, else the device's own through a file input. */
export function openPaper() {
  const camera = Boolean(navigator.mediaDevices?.getUserMedia);
  $("paper-camera").hidden = !camera;
  $("paper-capture-box").hidden = camera;
  $("paper").hidden = false;
  $("paper-read").setAttribute("aria-expanded", "true");
  $("paper").scrollIntoView({block: "nearest"});
  (camera ? $("paper-camera") : $("paper-capture")).focus({preventScroll: true});
}

/** Close the panel, and forget the list read and its picture. */
export function closePaper() {
  stopPhoto();
  forget();
  $("paper-status").textContent = "";
  $("paper").hidden = true;
  $("paper-read").setAttribute("aria-expanded", "false");
  $("paper-read").focus();
}

function forget() {
  clearRead();
  if (picture) URL.revokeObjectURL(picture);
  picture = null;
}

/** Show the camera's picture, to take a photo of the sheet; without a camera, or refused one, offer the file input
 * that opens the device's own camera. */
export async function startPhoto() {
  if (stream) return; // on already
  try {
    stream = await navigator.mediaDevices.getUserMedia({video: {facingMode: "environment", width: {ideal: 3840}},
      audio: false});
  } catch {
    $("paper-camera").hidden = true;
    $("paper-capture-box").hidden = false;
    $("paper-status").textContent = t("paper_no_camera");
    $("paper-capture").focus();
    return;
  }
  const video = $("paper-video");
  video.srcObject = stream;
  $("paper-camera-view").hidden = false;
  $("paper-camera-view").scrollIntoView({block: "nearest"});
  await video.play();
  $("paper-shoot").disabled = false; // now that the picture shows
  $("paper-shoot").focus();
}

export function stopPhoto() {
  for (const track of stream?.getTracks() ?? []) track.stop();
  stream = null;
  $("paper-video").srcObject = null;
  $("paper-camera-view").hidden = true;
  $("paper-shoot").disabled = true;
  $("paper-camera").focus();
}

/** Take the camera's picture as a JPEG, stop the camera and read the photo. */
export async function shoot() {
  const video = $("paper-video");
  const canvas = document.createElement("canvas");
  canvas.width = video.videoWidth;
  canvas.height = video.videoHeight;
  canvas.getContext("2d").drawImage(video, 0, 0);
  stopPhoto();
  const photo = await new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", PHOTO_QUALITY));
  if (!photo) throw new DeskError(t("bad_image"));
  await readPaper(photo);
}

/** Send a picture or PDF to the service and show what it read; a refusal in words. */
export async function readPaper(file) {
  if (!TYPES.includes(file.type)) throw new DeskError(t("paper_not_image"));
  forget();
  busy(true);
  try {
    let answer;
    try {
      answer = await post("/v1/decks/read", file, file.type, lang, t);
    } catch (error) {
      throw refusalOf(error, t, REFUSED[error.status] && t(REFUSED[error.status]));
    }
    const read = await answer.json().catch(() => null);
    if (!Array.isArray(read?.lines)) throw new DeskError(t("bad_answer", answer.status));
    if (!read.lines.length) throw new DeskError(t("paper_unreadable"));
    picture = file.type === "application/pdf" ? null : URL.createObjectURL(file);
    showRead(read, picture);
  } finally {
    busy(false);
  }
}

/** While a read is in flight, say so, and take no other. */
function busy(reading) {
  for (const id of ["paper-camera", "paper-capture", "paper-file"]) $(id).disabled = reading;
  $("paper-status").textContent = reading ? t("paper_reading") : "";
}
