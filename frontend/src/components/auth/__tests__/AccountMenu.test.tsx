import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import type { Me } from "../../../auth/authView";
import { AccountMenu } from "../AccountMenu";

const admin: Me = {
  auth_enabled: true,
  user: { id: "u1", email: "lead@example.org", role: "admin", disabled: false, created_at: "2026-11-23T00:00:00Z" },
  csrf_token: "c".repeat(64),
};

function renderMenu(me: Me) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <AccountMenu me={me} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return screen.getByRole("button", { name: `Account: ${me.user.email}` });
}

describe("AccountMenu", () => {
  it("opens from the keyboard, lists the admin's pages, and Escape closes it back to the button", async () => {
    const user = userEvent.setup();
    const button = renderMenu(admin);
    expect(button).toHaveAttribute("aria-expanded", "false");
    button.focus();
    await user.keyboard("{Enter}");
    expect(button).toHaveAttribute("aria-expanded", "true");
    expect(screen.getAllByRole("link").map((a) => a.textContent)).toEqual(["API tokens", "Users"]);
    await user.tab();
    expect(screen.getByRole("link", { name: "API tokens" })).toHaveFocus();
    await user.keyboard("{Escape}");
    expect(button).toHaveAttribute("aria-expanded", "false");
    expect(button).toHaveFocus();
    expect(screen.queryByRole("link")).toBeNull();
  });

  it("shows a member only their tokens page and the log out button", async () => {
    const user = userEvent.setup();
    await user.click(renderMenu({ ...admin, user: { ...admin.user, role: "member" } }));
    expect(screen.getAllByRole("link").map((a) => a.textContent)).toEqual(["API tokens"]);
    expect(screen.getByRole("button", { name: "Log out" })).toBeVisible();
  });
});
