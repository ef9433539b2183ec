import type { Scenario } from "./index.js";

/** `<allot-playground preset="...">` or with an inline `<script type="application/json">`. */
export declare class AllotPlayground extends HTMLElement {
  /** The scenario shown (a copy); setting it re-renders. */
  scenario: Scenario | null;
}

declare global {
  interface HTMLElementTagNameMap {
    "allot-playground": AllotPlayground;
  }
}
