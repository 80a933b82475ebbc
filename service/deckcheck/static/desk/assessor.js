// The penalty assessor: an infraction from GET /v1/infractions, the facts its penalty depends on (only those asked
// for are shown), and the assessment of POST /v1/penalties/assess: the penalty, what it applies to, the remedy, and
// what the referee may raise it to (never applied by the service).

import {$, element, postJson} from "./common.js";
import {lang, t} from "./words.js";

const FACTS = {intentional: "assess-intentional", minutes_late: "assess-minutes", remedied: "assess-remedied",
  decisive: "assess-decisive", influenced_outcome: "assess-influenced"};
let infractions = []; // GET /v1/infractions in the page's language

/** Load the catalogue in the page's language and fill the choice of infraction, keeping the one chosen. */
export async function loadInfractions() {
  const chosen = $("assess-code").value;
  try {
    const answer = await fetch(new URL("/v1/infractions", location.href), {headers: {"Accept-Language": lang}});
    if (!answer.ok) throw new Error(String(answer.status));
    infractions = await answer.json();
  } catch {
    $("assessment").textContent = t("infractions_failed");
    return;
  }
  const groups = {deck: element("optgroup"), conduct: element("optgroup")};
  for (const [kind, group] of Object.entries(groups)) group.label = t(`kind_${kind}`);
  for (const item of infractions) {
    const option = element("option", "", `${item.summary} (${item.code})`);
    option.value = item.code;
    groups[item.kind].append(option);
  }
  $("assess-code").replaceChildren(groups.conduct, groups.deck);
  if (chosen) $("assess-code").value = chosen;
  showFacts();
}

/** Show only the facts the chosen infraction depends on. */
function showFacts() {
  const item = infractions.find((candidate) => candidate.code === $("assess-code").value);
  for (const [fact, id] of Object.entries(FACTS)) $(`${id}-box`).hidden = !item?.depends_on.includes(fact);
}

/** A yes/no/unknown choice as true, false or left out. */
const choice = (id) => ({true: true, false: false})[$(id).value];

function assessBody() {
  const body = {code: $("assess-code").value, timing: $("assess-timing").value, match_decided: $("assess-decided").checked,
    prior: Number($("assess-prior").value) || 0};
  for (const [fact, id] of Object.entries(FACTS)) {
    if ($(`${id}-box`).hidden) continue;
    const value = fact === "minutes_late" ? ($(id).value === "" ? undefined : Number($(id).value)) : choice(id);
    if (value !== undefined) body[fact] = value;
  }
  return body;
}

async function assess() {
  const shown = $("assessment");
  shown.replaceChildren();
  try {
    const found = await postJson("/v1/penalties/assess", assessBody(), lang, t);
    shown.dataset.penalty = found.penalty;
    shown.append(element("p", "assessed-penalty", `${found.penalty_name}: ${found.applies_to_text}`),
      element("p", "assessed-item", `${found.summary} (${found.code}; ${found.basis.join(", ")})`));
    if (found.remedy) shown.append(element("p", "assessed-remedy", `${t("remedy")}: ${found.remedy}`));
    const notes = element("ul", "assessed-notes");
    for (const text of [...found.escalations.map((e) => e.text), ...found.notes]) notes.append(element("li", "", text));
    shown.append(notes);
  } catch (error) {
    shown.dataset.penalty = "error";
    shown.append(element("p", "assessed-error", error.message));
  }
}

/** Wire the assessor (applyLanguage loads the catalogue). */
export function startAssessor() {
  $("assess-code").addEventListener("change", showFacts);
  $("assess").addEventListener("click", assess);
}
