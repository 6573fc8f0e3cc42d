// End-to-end tests: the real backend (offline model, fresh SQLite) serving the built SPA, driven in
// the system's Chromium (never a downloaded browser). `npm run e2e` expects `npm run build` first.
// The shared server runs the offline model at full speed; the tests that act in the middle of a
// phase (recovery, outage) start a server of their own whose model steps each wait 0.8 s.
import { defineConfig } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 8765);
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const DATA_DIR = "artifacts/e2e-data";

export default defineConfig({
  testDir: "./e2e",
  outputDir: "./artifacts/test-results",
  timeout: 120_000,
  expect: { timeout: 30_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: true,
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    browserName: "chromium",
    launchOptions: {
      executablePath: CHROMIUM,
      // This machine has no outside network: keep Chromium from trying to reach Google's services.
      args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    },
    acceptDownloads: true,
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
  },
  webServer: {
    command: `rm -rf ${DATA_DIR} && mkdir -p ${DATA_DIR} && exec ../backend/.venv/bin/forge serve --port ${PORT}`,
    url: `http://127.0.0.1:${PORT}/api/v1/health/ready`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      FORGE_DATA_DIR: DATA_DIR,
      FORGE_MODEL: "offline",
      FORGE_VERIFIER_MODEL: "offline",
      FORGE_OFFLINE_STEP_DELAY_MS: "0",
      DATABASE_URL: "",
      ANTHROPIC_API_KEY: "",
      OPENAI_API_KEY: "",
      LOG_LEVEL: "warning",
    },
  },
});
