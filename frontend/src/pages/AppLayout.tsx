import { useEffect, useRef } from "react";
import { Link, Outlet, useLocation } from "react-router";
import { useTranslation } from "react-i18next";
import { useCurrentUser } from "../auth/AuthGate";
import { AccountMenu } from "../components/auth/AccountMenu";
import { LanguageSwitcher } from "../components/ui/LanguageSwitcher";

/**
 * After an in-app navigation, focus goes to the new page's main heading (as a full page load
 * would put a screen reader at the top), once the page has rendered it. Not on the first load.
 */
function useFocusHeadingOnNavigation() {
  const { pathname } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    let frame = 0;
    let tries = 0;
    const focusHeading = () => {
      const heading = document.querySelector<HTMLElement>("main h1");
      if (heading) {
        if (!heading.hasAttribute("tabindex")) heading.setAttribute("tabindex", "-1");
        heading.focus({ preventScroll: false });
      } else if (tries++ < 120) frame = requestAnimationFrame(focusHeading); // lazy pages render a moment later
    };
    frame = requestAnimationFrame(focusHeading);
    return () => cancelAnimationFrame(frame);
  }, [pathname]);
}

export function AppLayout() {
  useFocusHeadingOnNavigation();
  const me = useCurrentUser();
  const { t } = useTranslation();
  return (
    <div className="min-h-screen">
      <header className="no-print border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-7xl items-center justify-between gap-4 px-4 py-3">
          <Link to="/" className="flex items-center gap-2 font-semibold text-slate-900">
            <span className="grid size-7 place-items-center rounded-lg bg-indigo-700 text-sm text-white" aria-hidden>
              K
            </span>
            {t("app.name")}
          </Link>
          <nav className="flex min-w-0 flex-wrap items-center justify-end gap-x-4 gap-y-1 text-sm text-slate-600">
            <Link to="/" className="hover:text-slate-900">
              {t("app.sessions")}
            </Link>
            <Link to="/memory" className="hover:text-slate-900">
              {t("app.memory")}
            </Link>
            <a href="/docs" className="hover:text-slate-900">
              {t("app.api")}
            </a>
            <LanguageSwitcher />
            {me?.auth_enabled && <AccountMenu me={me} />}
          </nav>
        </div>
      </header>
      <main className="mx-auto max-w-7xl px-4 py-6">
        <Outlet />
      </main>
    </div>
  );
}
