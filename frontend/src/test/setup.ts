import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach } from "vitest";

// Vitest runs without globals, so Testing Library cannot register its own cleanup: unmount here.
afterEach(cleanup);

// findBy/waitFor give up after this long. The default (1 s) is about the machine, not the app: on a
// busy CI machine a render after a click can take longer, and the test would fail for no reason.
configure({ asyncUtilTimeout: 5_000 });
