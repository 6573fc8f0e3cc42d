import "@testing-library/jest-dom/vitest";
import { cleanup } from "@testing-library/react";
import { afterEach, beforeEach } from "vitest";
import { i18n } from "../i18n/i18n";

// Vitest runs without globals, so Testing Library cannot register its own cleanup: unmount here.
afterEach(cleanup);

// Tests read the English words unless they switch language themselves; a switch never leaks.
beforeEach(async () => {
  await i18n.changeLanguage("en");
});
