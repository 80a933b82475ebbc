/**
 * The look of `<deck-check>`, in its shadow root. A page restyles it through the custom properties below (set on the
 * element or any ancestor) and through the parts it exposes (`deck-check::part(violation)`). It follows the
 * reader's light or dark scheme (CSS light-dark()) unless the page fixes one with the `theme` attribute (`light`,
 * `dark`).
 *
 * --deck-check-background, --deck-check-text, --deck-check-muted, --deck-check-border: the box and its text;
 * --deck-check-legal, --deck-check-illegal, --deck-check-warning: the verdict's and the warning's accents;
 * --deck-check-radius, --deck-check-padding, --deck-check-font: the box's corners, spacing and type.
 */
export const STYLE = `
:host {
  display: block;
  color-scheme: light dark;
  --_background: var(--deck-check-background, light-dark(#ffffff, #16191d));
  --_text: var(--deck-check-text, light-dark(#1b1f24, #e6edf3));
  --_muted: var(--deck-check-muted, light-dark(#505a66, #a4afba));
  --_border: var(--deck-check-border, light-dark(#c9d1d9, #3d444d));
  --_legal: var(--deck-check-legal, light-dark(#116329, #56d364));
  --_illegal: var(--deck-check-illegal, light-dark(#b3261e, #ff8a80));
  --_warning: var(--deck-check-warning, light-dark(#7a4b00, #f0b849));
  --_warning-background: color-mix(in srgb, var(--_warning) 10%, var(--_background));
}
:host([theme="light"]) { color-scheme: light; }
:host([theme="dark"]) { color-scheme: dark; }
:host([hidden]) { display: none; }
[part~="box"] {
  box-sizing: border-box;
  max-width: 100%;
  padding: var(--deck-check-padding, 0.75em 1em);
  border: 1px solid var(--_border);
  border-inline-start: 0.4em solid var(--_border);
  border-radius: var(--deck-check-radius, 0.5em);
  background: var(--_background);
  color: var(--_text);
  font: var(--deck-check-font, inherit);
  line-height: 1.45;
  overflow-wrap: break-word;
}
[part~="box"][data-state="legal"] { border-inline-start-color: var(--_legal); }
[part~="box"][data-state="illegal"], [part~="box"][data-state="failed"] { border-inline-start-color: var(--_illegal); }
[part~="box"][aria-busy="true"] { border-style: dashed; }
[aria-busy="true"] [part~="summary"]::after { content: " · " attr(data-checking); color: var(--_muted); font-weight: 400; }
[part~="summary"] { margin: 0; font-weight: 700; font-size: 1.05em; }
[data-state="legal"] [part~="summary"] { color: var(--_legal); }
[data-state="illegal"] [part~="summary"], [data-state="failed"] [part~="summary"] { color: var(--_illegal); }
[part~="summary"]::before { display: inline-block; min-width: 1.3em; }
[data-state="legal"] [part~="summary"]::before { content: "✓" / ""; }
[data-state="illegal"] [part~="summary"]::before, [data-state="failed"] [part~="summary"]::before { content: "✗" / ""; }
[part~="list"] time, [part~="penalty"] span { white-space: nowrap; }
[part~="list"], [part~="request-id"] { margin: 0.3em 0 0; color: var(--_muted); font-size: 0.9em; }
[part~="warning"] {
  margin: 0.6em 0 0;
  padding: 0.4em 0.7em;
  border: 1px solid var(--_warning);
  border-radius: 0.3em;
  background: var(--_warning-background);
}
[part~="warning"] strong { color: var(--_warning); }
[part~="warning"] p { margin: 0.2em 0 0; }
[part~="violations"] { margin: 0.6em 0 0; padding-inline-start: 1.4em; }
[part~="violation"] + [part~="violation"] { margin-top: 0.6em; padding-top: 0.6em; border-top: 1px solid var(--_border); }
[part~="message"] { margin: 0; }
[part~="facts"] { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 0.15em 0.8em; margin: 0.3em 0 0; font-size: 0.92em; }
[part~="facts"] dt { color: var(--_muted); }
[part~="facts"] dd { margin: 0; }
[part~="rule"] { font-variant-numeric: tabular-nums; }
[part~="penalty"] { font-weight: 600; }
[part~="loosely"] { margin: 0.6em 0 0; font-size: 0.92em; }
[part~="loosely"] p, [part~="error"] { margin: 0.4em 0 0; }
[part~="loosely"] ul, [part~="errors"] { margin: 0.2em 0 0; padding-inline-start: 1.4em; }
[part~="about"] { margin: 0.6em 0 0; color: var(--_muted); font-size: 0.9em; }
[part~="about"] summary { cursor: pointer; width: fit-content; }
[part~="about"] p { margin: 0.3em 0 0; }
:focus-visible { outline: 2px solid var(--_text); outline-offset: 2px; border-radius: 2px; }
`;
