// The counts a paper list prints beside its headings, held to the lines under them as staff have corrected them
// (review.js): a line the reader lost, or lines read under the heading before their own, shows here, and staff tick
// that they compared the sheet before the deck is checked.

import {element} from "./common.js";
import {t} from "./words.js";

/** The counts printed beside headings (`read.totals`) that the copies under them, as staff have corrected them
 * (`rows`: {section, count, removed} for each line, lines added last), do not make, each with the copies counted
 * now. A section's total counts every line staff put in it, added or moved; a kind's (monsters, spells, traps),
 * which cannot tell where in its section a line was added, stands aside once its section's own total agrees. */
export function disagreeing(read, rows) {
  const counted = (read.totals ?? []).map((total) => {
    const [from, to] = total.lines;
    const section = read.lines[from]?.section;
    // A kind's lines are those read under it and still in its section; a section's, every line now in it.
    const under = rows.filter((row, i) => !row.removed && row.section === section &&
      (!total.of_kind || (i >= from && i < to)));
    return {total, section, now: under.reduce((sum, row) => sum + (Number(row.count) || 0), 0)};
  });
  const agreed = new Set(counted.filter(({total, now}) => !total.of_kind && now === total.printed)
    .map(({section}) => section));
  return counted.filter(({total, section, now}) => now !== total.printed && !(total.of_kind && agreed.has(section)));
}

/** Show the totals that disagree (`wrong`) at the top of `list`, with the box staff tick (`checked`); drawn anew only
 * when what they say changes, so the tick keeps its focus. */
export function showTotals(list, wrong, checked) {
  const said = JSON.stringify(wrong.map(({total, now}) => [total.text, now]));
  const shown = list.querySelector(".paper-totals");
  if ((shown?.dataset.said ?? "[]") === said) return;
  const drawn = wrong.length ? [totalsBox(wrong, checked)] : [];
  drawn.forEach((box) => { box.dataset.said = said; });
  if (shown) shown.replaceWith(...drawn);
  else list.prepend(...drawn);
}

function totalsBox(wrong, checked) {
  const box = element("div", "paper-totals");
  const items = element("ul");
  items.replaceChildren(...wrong.map(({total, now}) => element("li", "", t("paper_total", total.text, total.printed,
    now))));
  const tick = Object.assign(element("input"), {type: "checkbox", checked});
  tick.dataset.act = "totals";
  const label = element("label");
  label.append(tick, element("span", "", t("paper_totals_checked")));
  box.append(element("p", "paper-why", t("paper_totals_wrong")), items, label);
  return box;
}
