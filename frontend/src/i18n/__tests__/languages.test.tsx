import { act, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, test, vi } from "vitest";
import { LanguageSwitcher } from "../../components/ui/LanguageSwitcher";
import { describeStatus, PHASE_LABELS } from "../../session/describeSession";
import { i18n } from "../i18n";
import { chooseLanguage, LANGUAGE_STORAGE_KEY, languageOfTag } from "../languages";

describe("chooseLanguage", () => {
  test("a choice stored in this browser wins over the browser's preference", () => {
    expect(chooseLanguage("ja", ["zh-CN", "en"])).toBe("ja");
  });

  test("otherwise the first browser language the UI has, by its primary subtag", () => {
    expect(chooseLanguage(null, ["fr-FR", "zh-TW", "ja"])).toBe("zh");
    expect(chooseLanguage(null, ["ja-JP"])).toBe("ja");
    expect(chooseLanguage(null, ["en-GB", "zh-CN"])).toBe("en");
  });

  test("English when nothing fits, and a stored value the UI does not have is ignored", () => {
    expect(chooseLanguage(null, ["fr", "de"])).toBe("en");
    expect(chooseLanguage("klingon", [])).toBe("en");
    expect(chooseLanguage("", ["ja"])).toBe("ja");
    expect(languageOfTag("  ZH_hans ")).toBe("zh");
  });
});

describe("LanguageSwitcher", () => {
  afterEach(() => localStorage.removeItem(LANGUAGE_STORAGE_KEY));

  test("switching shows the language at once, remembers it and updates <html lang>", async () => {
    render(<LanguageSwitcher />);
    expect(document.documentElement.lang).toBe("en");
    await userEvent.selectOptions(screen.getByLabelText("Language"), "ja");
    expect(screen.getByLabelText("言語")).toHaveValue("ja");
    expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe("ja");
    expect(document.documentElement.lang).toBe("ja");
    await userEvent.selectOptions(screen.getByLabelText("言語"), "zh");
    expect(document.documentElement.lang).toBe("zh-Hans");
    expect(screen.getByRole("option", { name: "日本語" })).toBeInTheDocument();
  });

  test("the pure text modules answer in the language shown", async () => {
    await act(() => i18n.changeLanguage("zh"));
    expect(PHASE_LABELS.explore).toBe("探索");
    expect(describeStatus({ status: "exploring", running: true, awaiting_input_type: null }).label).toBe("工作中");
    await act(() => i18n.changeLanguage("ja"));
    expect(PHASE_LABELS.crystallize).toBe("結晶化");
  });
});

describe("a missing key", () => {
  test("is reported on the console (the browser tests fail on it) and falls back to English", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    await act(() => i18n.changeLanguage("ja"));
    i18n.addResource("en", "translation", "home.onlyInEnglish", "Only in English");
    expect(i18n.t("home.onlyInEnglish" as never)).toBe("Only in English");
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^i18n: missing key ja home\.onlyInEnglish$/));
    warn.mockClear();
    expect(i18n.t("build.claims", { count: 1 })).toBe("1 件の主張"); // plural forms ja has are not missing
    expect(i18n.t("phases.explore")).toBe("探索");
    expect(warn).not.toHaveBeenCalled();
    delete (i18n.store.data.en!.translation as Record<string, Record<string, string>>).home!.onlyInEnglish;
  });
});
