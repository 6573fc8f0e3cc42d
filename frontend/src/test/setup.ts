import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach, beforeEach } from "vitest";
import { i18n } from "../i18n/i18n";

// Vitest runs without globals, so Testing Library cannot register its own cleanup: unmount here.
afterEach(cleanup);

// findBy/waitFor give up after this long. The default (1 s) is about the machine, not the app: on a
// busy CI machine a render after a click can take longer, and the test would fail for no reason.
configure({ asyncUtilTimeout: 5_000 });

// Tests read the English words unless they switch language themselves; a switch never leaks.
beforeEach(async () => {
  await i18n.changeLanguage("en");
});
