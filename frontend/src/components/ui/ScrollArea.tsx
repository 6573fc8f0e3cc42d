import type { ReactNode } from "react";

/**
 * A box that scrolls sideways inside the page (wide tables on a phone) instead of widening it.
 * Focusable and named, so a keyboard can scroll it and a screen reader can find it. A named
 * group rather than a region: a document may hold many tables, and regions must be unique landmarks.
 */
export function ScrollArea({ label, className = "", children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <div
      role="group"
      aria-label={label}
      tabIndex={0}
      className={`max-w-full overflow-x-auto focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-400 ${className}`}
    >
      {children}
    </div>
  );
}
