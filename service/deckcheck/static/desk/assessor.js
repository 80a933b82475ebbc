// The penalty assessor: an infraction from the catalogue (catalogue.js), the facts its penalty depends on (only those
// asked for are shown), and the assessment of POST /v1/penalties/assess: the penalty, what it applies to, the remedy,
// and what the referee may raise it to (never applied by the service). Facts that contradict the infraction chosen
// are refused by the service in words, each naming the fields it is between, which are marked here. Each assessment
// is recorded in the queue under the player of the moment.

import {$, element, postJson} from "./common.js";
import {infractions, loadCatalogue} from "./catalogue.js";
import {recordAssessment} from "./queue.js";
import {lang, t} from "./words.js";

const FACTS = {intentional: "assess-intentional", minutes_late: "assess-minutes", remedied: "assess-remedied",
  decisive: "assess-decisive", influenced_outcome: "assess-influenced"};
// The request's fields and the controls that give them, for marking the fields a refusal names.
const CONTROLS = {...FACTS, code: "assess-code", timing: "assess-timing", match_decided: "assess-decided",
  prior: "assess-prior"};

/** Load the catalogue in the page's language and fill the choice of infraction, keeping the one chosen. Each
 * option is the infraction's summary and its citation: staff read words, not codes. */
export async function loadInfractions() {
  const chosen = $("assess-code").value;
  if (!(await loadCatalogue())) {
    $("assessment").textContent = t("infractions_failed");
    return;
  }
  const groups = {deck: element("optgroup"), conduct: element("optgroup")};
  for (const [kind, group] of Object.entries(groups)) group.label = t(`kind_${kind}`);
  for (const item of infractions()) {
    const option = element("option", "", t("infraction_option", item.summary.replace(/[。.]$/, ""), item.rule));
    option.value = item.code;
    groups[item.kind].append(option);
  }
  $("assess-code").replaceChildren(groups.conduct, groups.deck);
  if (chosen) $("assess-code").value = chosen;
  showFacts();
}

/** Show only the facts the chosen infraction depends on. */
function showFacts() {
  const item = infractions().find((candidate) => candidate.code === $("assess-code").value);
  for (const [fact, id] of Object.entries(FACTS)) $(`${id}-box`).hidden = !item?.depends_on.includes(fact);
  unmark();
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

/** Take away the marks of the last refusal. */
function unmark() {
  for (const id of Object.values(CONTROLS)) $(id).removeAttribute("aria-invalid");
}

/** Mark the controls of the fields a refusal names (each error's `fields`, else its `loc`). */
function mark(problems) {
  for (const problem of problems) {
    for (const loc of problem.fields ?? [problem.loc]) {
      const id = CONTROLS[loc?.[1]];
      if (id) $(id).setAttribute("aria-invalid", "true");
    }
  }
}

async function assess() {
  const shown = $("assessment");
  shown.replaceChildren();
  unmark();
  const body = assessBody();
  try {
    const found = await postJson("/v1/penalties/assess", body, lang, t);
    shown.dataset.penalty = found.penalty;
    shown.append(element("p", "assessed-penalty", `${found.penalty_name}: ${found.applies_to_text}`),
      element("p", "assessed-item", t("infraction_option", found.summary.replace(/[。.]$/, ""), found.basis.join(", "))));
    if (found.remedy) shown.append(element("p", "assessed-remedy", `${t("remedy")}: ${found.remedy}`));
    const notes = element("ul", "assessed-notes");
    for (const text of [...found.escalations.map((e) => e.text), ...found.notes]) notes.append(element("li", "", text));
    shown.append(notes, element("p", "hint", t("assess_recorded")));
    recordAssessment(found);
  } catch (error) {
    shown.dataset.penalty = "error";
    const problems = error.problems ?? [];
    if (problems.some((problem) => problem.type === "contradictory_facts")) {
      // The service's own words, in the page's language: what contradicts what, and what to choose instead.
      const list = element("ul", "assessed-contradictions");
      list.append(...problems.map((problem) => element("li", "", problem.msg)));
      shown.append(element("p", "assessed-error", error.detail ?? error.message), list);
      mark(problems);
    } else {
      shown.append(element("p", "assessed-error", error.message));
    }
  }
  // On a laptop's short screen the answer falls below the button: bring it into view, the button above it.
  shown.scrollIntoView({block: "nearest"});
}

/** Wire the assessor (applyLanguage loads the catalogue). */
export function startAssessor() {
  $("assess-code").addEventListener("change", showFacts);
  $("assess").addEventListener("click", assess);
  for (const id of Object.values(CONTROLS)) $(id).addEventListener("change", unmark);
}
