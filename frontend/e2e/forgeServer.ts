/**
 * A `forge serve` of the test's own (offline model, SQLite in its own data directory) that the test
 * can stop and start again on the same port and data — a real outage and a real restart, unlike
 * the suite's shared server.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";

export interface ForgeServer {
  readonly url: string;
  start(): Promise<void>;
  /** Stops the process the way an operator would (SIGTERM), and waits until it has exited. */
  stop(): Promise<void>;
}

/** Each model step waits this long on a server for tests that act mid-phase (a cut, a reload, a stop):
 * long enough that the test's action lands before the phase's review. */
export const MID_PHASE_STEP_DELAY = { FORGE_OFFLINE_STEP_DELAY_MS: "800" };

/** `env` adds to (or overrides) the server's environment, e.g. `{ FORGE_AUTH: "on" }` or
 * `MID_PHASE_STEP_DELAY`; without it the offline model runs at full speed. */
export function forgeServer(port: number, dataDir: string, env: Record<string, string> = {}): ForgeServer {
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const url = `http://127.0.0.1:${port}`;
  let child: ChildProcess | null = null;
  return {
    url,
    async start() {
      child = spawn("../backend/.venv/bin/forge", ["serve", "--port", String(port)], {
        stdio: ["ignore", "ignore", "inherit"],
        env: {
          ...process.env,
          FORGE_DATA_DIR: dataDir,
          FORGE_MODEL: "offline",
          FORGE_VERIFIER_MODEL: "offline",
          FORGE_OFFLINE_STEP_DELAY_MS: "0",
          DATABASE_URL: "",
          ANTHROPIC_API_KEY: "",
          OPENAI_API_KEY: "",
          LOG_LEVEL: "warning",
          ...env,
        },
      });
      for (let i = 0; i < 600; i++) {
        if (child.exitCode !== null) throw new Error(`forge serve exited with ${child.exitCode}`);
        try {
          if ((await fetch(`${url}/api/v1/health/ready`)).ok) return;
        } catch {
          // not listening yet
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error("forge serve did not become ready");
    },
    async stop() {
      const running = child;
      child = null;
      if (!running || running.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => running.once("exit", () => resolve()));
      running.kill("SIGTERM");
      const timer = setTimeout(() => running.kill("SIGKILL"), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
