import { useEffect, useId, useRef, useState } from "react";
import { Link, useLocation } from "react-router";
import { useTranslation } from "react-i18next";
import { accountLinks, type Me } from "../../auth/authView";
import { useLogout } from "../../hooks/useAccount";

/**
 * The header's account menu (disclosure pattern): a button with the email that opens a list of
 * links — API tokens, Users (admins) — and Log out. Escape closes it and returns focus to the
 * button; it closes on navigation and when focus leaves it.
 */
export function AccountMenu({ me }: { me: Me }) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const container = useRef<HTMLDivElement>(null);
  const logout = useLogout();
  const { pathname } = useLocation();
  const { t } = useTranslation();

  useEffect(() => setOpen(false), [pathname]);

  return (
    <div
      ref={container}
      className="relative"
      onKeyDown={(e) => {
        if (e.key === "Escape" && open) {
          setOpen(false);
          button.current?.focus();
        }
      }}
      onBlur={(e) => {
        if (!container.current?.contains(e.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((o) => !o)}
        className="rounded-lg px-2 py-1 text-slate-700 hover:bg-slate-100 focus:outline-none focus:ring-2 focus:ring-indigo-300"
      >
        <span className="sr-only">{t("login.account")}</span>
        {me.user.email}
        <span aria-hidden> ▾</span>
      </button>
      {open && (
        <ul
          id={menuId}
          className="absolute right-0 z-20 mt-1 w-48 rounded-lg border border-slate-200 bg-white py-1 text-sm shadow-lg"
        >
          {accountLinks(me).map((link) => (
            <li key={link.to}>
              <Link to={link.to} className="block px-3 py-2 text-slate-800 hover:bg-slate-50 focus:bg-slate-100">
                {link.label}
              </Link>
            </li>
          ))}
          <li>
            <button
              type="button"
              className="block w-full px-3 py-2 text-left text-slate-800 hover:bg-slate-50 focus:bg-slate-100"
              onClick={() => logout.mutate()}
            >
              {t("login.logout")}
            </button>
          </li>
        </ul>
      )}
    </div>
  );
}
