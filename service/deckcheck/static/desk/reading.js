// Reading a submission: a deck in any form it comes in (ydke link, JSON request, .ydk file, text list), a file's
// text, and the text of a QR code in a picture or before the camera.

import {$, DeskError} from "./common.js";
import {t} from "./words.js";
import {jsonDeck, ydkeLink} from "./shape.js";

const JSQR_URL = "/static/vendor/jsqr-1.4.0/jsQR.js";
const MAX_FILE_BYTES = 1024 * 1024; // the service's body limit
const MAX_QR_SIDE = 1600; // pixels: a photo is scaled down to this before jsQR reads it
const SVG_SIDE = 1000; // pixels: the longer side an SVG is drawn at
export const DECK_FIELDS = ["main", "extra", "side", "ydk", "ydke", "text"]; // a request's fields that hold its deck

/** Whether a scanned or pictured code is a deck: only a ydke link is. Anything else a scanner or camera reads (a
 * web address, a player's ID card) would otherwise go to the service as a text list, and come back 違反. */
export const isDeckLink = (code) => /^ydke:\/\//i.test(code.trim());

/** The request fields of a deck in any accepted form, and the text its line numbers refer to. `kind` is the kind of
 * file it came from where that says its form ("json", "ydke"); else the form is told from the text. A deck of a shape
 * the service does not take is refused in words. */
export function readDeck(raw, kind = null) {
  const text = raw.replace(/^\ufeff/, "");
  const trimmed = text.trim();
  if (!trimmed) throw new DeskError(t("empty"));
  if (kind === "ydke" || isDeckLink(trimmed)) {
    return {fields: {ydke: ydkeLink(trimmed, t("place_ydke_file"))}, source: trimmed};
  }
  // JSON: a .json file's, a text in { }, or a text in [ ] that reads as JSON (a list's heading may be in brackets).
  const mustBeJson = kind === "json" || trimmed.startsWith("{");
  const json = mustBeJson || trimmed.startsWith("[") ? parsedJson(trimmed, mustBeJson) : undefined;
  if (json !== undefined) {
    const fields = jsonDeck(json);
    // A JSON request: its own fields. Lines in an answer refer to its ydk or text, if it has one.
    return {fields, source: fields.ydk ?? fields.text ?? trimmed};
  }
  if (/^\s*(#main|#extra|!side)\s*$/im.test(text)) return {fields: {ydk: text}, source: text};
  return {fields: {text}, source: text};
}

/** The value of the JSON `text`; where it is no JSON, a DeskError if it `must` be, else undefined. */
function parsedJson(text, must) {
  try {
    return JSON.parse(text);
  } catch (error) {
    if (must) throw new DeskError(t("bad_json"), [error.message]);
    return undefined;
  }
}

/** Only the deck of a request's fields (the roster takes nothing else). */
export const deckOnly = (fields) =>
  Object.fromEntries(Object.entries(fields).filter(([key]) => DECK_FIELDS.includes(key)));

/** The kind of deck file `file` is, where that says the form of the deck in it: "json", "ydke", or null. */
export function fileKind(file) {
  if (/\.json$/i.test(file.name) || file.type === "application/json") return "json";
  return /\.ydke$/i.test(file.name) ? "ydke" : null;
}

/** A file's text: UTF-8, else Shift_JIS (lists saved by Japanese Windows software); a file that holds a NUL (a
 * picture, an archive, a PDF) is none. */
export async function readFile(file) {
  if (file.size > MAX_FILE_BYTES) throw new DeskError(t("too_big"));
  const bytes = await file.arrayBuffer();
  let text;
  try {
    text = new TextDecoder("utf-8", {fatal: true}).decode(bytes);
  } catch {
    text = new TextDecoder("shift_jis").decode(bytes);
  }
  if (text.includes("\0")) throw new DeskError(t("not_text"));
  return text;
}

// ---- QR codes: from a picture or the camera ----

let decoder = null; // a promise of a function from a canvas or a video to the text of a QR code in it, or null

async function makeDecoder() {
  // The browser's own BarcodeDetector where it reads QR codes (Chrome on Android, macOS, ChromeOS)…
  if ("BarcodeDetector" in globalThis) {
    try {
      if ((await BarcodeDetector.getSupportedFormats()).includes("qr_code")) {
        const native = new BarcodeDetector({formats: ["qr_code"]});
        return async (source) => (await native.detect(source))[0]?.rawValue ?? null;
      }
    } catch {
      // no usable detector: jsQR below
    }
  }
  // …else jsQR, loaded only now. Its file is a UMD bundle: imported as a module, it sets self.jsQR.
  await import(JSQR_URL);
  const frames = document.createElement("canvas"); // the camera's frames are drawn here, one after the other
  return (source) => {
    const canvas = source instanceof HTMLVideoElement ? drawn(source, source.videoWidth, source.videoHeight, frames)
      : source;
    const pixels = canvas.getContext("2d", {willReadFrequently: true}).getImageData(0, 0, canvas.width, canvas.height);
    return self.jsQR(pixels.data, canvas.width, canvas.height)?.data ?? null;
  };
}

/** `source` (a picture, or a frame of the camera's video) of `width` × `height` drawn on a canvas, on white (a
 * transparent background would read as black) and no larger than MAX_QR_SIDE (a phone photo is far larger than
 * needed). */
function drawn(source, width, height, canvas = document.createElement("canvas")) {
  const scale = Math.min(1, MAX_QR_SIDE / Math.max(width, height));
  canvas.width = Math.round(width * scale);
  canvas.height = Math.round(height * scale);
  const context = canvas.getContext("2d", {willReadFrequently: true});
  context.fillStyle = "#fff";
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.drawImage(source, 0, 0, canvas.width, canvas.height);
  return canvas;
}

/** A canvas or a video, to the text of the QR code in it, or null. */
const decodeQr = async (source) => (await (decoder ??= makeDecoder()))(source);

/** The text of the QR code in a picture. The picture is loaded as an <img> from a blob: URL (which the page's
 * policy allows) and drawn on a canvas, not read by createImageBitmap(): that rejects SVG, the form the service
 * draws QR codes in by default, and an <img> decodes every format the browser shows. */
export async function readQrPicture(file) {
  const url = URL.createObjectURL(file);
  try {
    const picture = new Image();
    picture.src = url;
    try {
      await picture.decode();
    } catch {
      throw new DeskError(t("bad_image"));
    }
    // An SVG is drawn SVG_SIDE wide, whatever size it gives (one with a viewBox alone gets 150 pixels): drawn
    // larger, a vector picture loses nothing, and each module of its code gets pixels enough.
    const {naturalWidth: width, naturalHeight: height} = picture;
    const scale = file.type === "image/svg+xml" && width ? SVG_SIDE / Math.max(width, height) : 1;
    const canvas = drawn(picture, width * scale || SVG_SIDE, height * scale || SVG_SIDE);
    const text = await decodeQr(canvas);
    if (!text) throw new DeskError(t("no_qr"));
    return text;
  } finally {
    URL.revokeObjectURL(url);
  }
}

let stream = null; // the camera's, while it is on

export const cameraOn = () => stream !== null;

/** Show the camera's picture until a QR code is read in it, then stop the camera and give `onCode` the code's text. */
export async function startCamera(onCode) {
  try {
    stream = await navigator.mediaDevices.getUserMedia({video: {facingMode: "environment"}, audio: false});
  } catch (error) {
    throw new DeskError(t("camera_failed", error.message)); // refused, or no camera
  }
  const video = $("camera-video");
  video.srcObject = stream;
  $("camera-view").hidden = false;
  $("camera-stop").focus();
  await video.play();
  // Look at a frame about five times a second until a code is read or the camera is stopped.
  while (stream) {
    const text = video.readyState >= video.HAVE_CURRENT_DATA ? await decodeQr(video) : null;
    if (text && stream) {
      stopCamera();
      await onCode(text);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export function stopCamera() {
  for (const track of stream?.getTracks() ?? []) track.stop();
  stream = null;
  $("camera-video").srcObject = null;
  $("camera-view").hidden = true;
  $("scan").focus();
}
