// The picture of a paper list read: the photo or scan itself with a box over each line read (and over the QR code
// and the text taken for no card), the cells of a form's ruled tables outlined faintly under them, and, for a line
// to review, its own strip of the picture enlarged.

import {$, element} from "./common.js";
import {t} from "./words.js";

const MARGIN = 0.2; // of a line's height: the picture around a line shown with it
const STRIP_HEIGHT = "3.5rem"; // at most, a line's strip: about twice the line on paper

let picture = null; // the blob: URL of the picture shown, or null (a PDF: the list alone)

/** Show the picture at `url`, or none (null). */
export function showPicture(url) {
  picture = url;
  if (url) $("paper-image").src = url;
  else $("paper-image").removeAttribute("src"); // an empty src is no picture either, but an error
  $("paper-image").alt = t("paper_image");
  $("paper-sheet").hidden = !url;
}

/** The size of the page a line of `read` is on, if its picture is shown: only a picture's one page is. */
const pageOf = (read, line) => (picture && line.box && line.page === 1 ? read.pages.find((p) => p.page === 1) : null);

/** A box of `className` over what of `read` stands at `line.box` on the picture, in percent of the page: it follows
 * the picture's size on the screen. None where the picture does not show its page. */
function at(read, line, className) {
  const page = pageOf(read, line);
  if (!page) return [];
  const [x, y, w, h] = line.box;
  const drawn = element("div", className);
  Object.assign(drawn.style, {left: `${(100 * x) / page.width}%`, top: `${(100 * y) / page.height}%`,
    width: `${(100 * w) / page.width}%`, height: `${(100 * h) / page.height}%`});
  return [drawn];
}

/** Outline each cell of the ruled tables `read` found on the picture's page (`read.cells`): how the reader saw a
 * form's tables, under the lines' boxes. Only drawn: their layer is hidden from screen readers and takes no click. */
export function drawCells(read) {
  $("paper-cells").replaceChildren(...(read.cells ?? []).flatMap((cell) => at(read, cell, "paper-cell")));
}

/** Draw the box of each line of `read` (its index as data-index), of its QR code and of the text it took for no card
 * over the picture. */
export function drawBoxes(read) {
  const boxes = read.lines.flatMap((line, i) => at(read, line, "paper-box").map((drawn) => {
    drawn.dataset.index = String(i);
    return drawn;
  }));
  $("paper-boxes").replaceChildren(...boxes, ...(read.qr ? at(read, read.qr, "paper-qr") : []),
    ...(read.ignored ?? []).flatMap((line) => at(read, line, "paper-other")));
}

/** The strip of the picture a line of `read` was read from, with a little of the page around it, as wide as the
 * list allows up to STRIP_HEIGHT high; none without a picture. */
export function lineStrip(read, line) {
  const page = pageOf(read, line);
  if (!page) return [];
  const [x, y, w, h] = line.box;
  const left = Math.max(0, x - MARGIN * h);
  const top = Math.max(0, y - MARGIN * h);
  const width = Math.min(page.width, x + w + MARGIN * h) - left;
  const height = Math.min(page.height, y + h + MARGIN * h) - top;
  const strip = element("div", "paper-strip");
  strip.setAttribute("role", "img");
  strip.setAttribute("aria-label", t("paper_read_as", line.text));
  // Scaled so that the strip fills the width; a percentage position p puts the picture's p% at the strip's p%.
  Object.assign(strip.style, {backgroundImage: `url("${picture}")`,
    backgroundSize: `${(100 * page.width) / width}% auto`, aspectRatio: `${width} / ${height}`,
    width: `min(100%, calc(${STRIP_HEIGHT} * ${width / height}))`,
    backgroundPosition: `${width < page.width ? (100 * left) / (page.width - width) : 0}% ` +
      `${height < page.height ? (100 * top) / (page.height - height) : 0}%`});
  return [strip];
}
