/**
 * Whether the autopilot answers a session's reviews, remembered per session in this browser.
 * The policy itself runs on the server (POST /autopilot); the browser only decides to delegate.
 */
export interface AutopilotPreference {
  readonly enabled: boolean;
  readonly acceptThreshold: number;
  readonly rounds: number;
}

export const DEFAULT_AUTOPILOT: AutopilotPreference = { enabled: false, acceptThreshold: 0.6, rounds: 1 };

const key = (sessionId: string) => `forge.autopilot.${sessionId}`;

export function readAutopilot(sessionId: string, storage: Storage = localStorage): AutopilotPreference {
  try {
    const raw = storage.getItem(key(sessionId));
    if (!raw) return DEFAULT_AUTOPILOT;
    const parsed = JSON.parse(raw) as Partial<AutopilotPreference>;
    return {
      enabled: parsed.enabled === true,
      acceptThreshold: clamp(Number(parsed.acceptThreshold ?? DEFAULT_AUTOPILOT.acceptThreshold), 0, 1),
      rounds: Math.round(clamp(Number(parsed.rounds ?? DEFAULT_AUTOPILOT.rounds), 1, 5)),
    };
  } catch {
    return DEFAULT_AUTOPILOT;
  }
}

export function writeAutopilot(sessionId: string, value: AutopilotPreference, storage: Storage = localStorage): void {
  try {
    storage.setItem(key(sessionId), JSON.stringify(value));
  } catch {
    // Private mode or a full quota: the toggle still works for this page view.
  }
}

function clamp(value: number, low: number, high: number): number {
  return Number.isFinite(value) ? Math.min(high, Math.max(low, value)) : low;
}
