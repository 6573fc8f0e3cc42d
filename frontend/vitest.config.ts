// Vitest: a test file that renders (`*.test.tsx`) runs in jsdom; one that renders nothing
// (`*.test.ts`: pure functions, the API client, text, i18n keys) runs in Node, which spares it
// jsdom's start-up (about a second a file on a busy 2-core machine). A `.ts` test that needs the DOM
// says so with a `// @vitest-environment jsdom` comment at its top.
import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [react()],
  test: {
    setupFiles: ["./src/test/setup.ts"],
    restoreMocks: true,
    // Guards against a hung test, not timings: a busy 2-core CI machine types slowly through user-event.
    testTimeout: 20_000,
    projects: [
      { extends: true, test: { name: "node", environment: "node", include: ["src/**/__tests__/**/*.test.ts"] } },
      { extends: true, test: { name: "jsdom", environment: "jsdom", include: ["src/**/__tests__/**/*.test.tsx"] } },
    ],
  },
});
