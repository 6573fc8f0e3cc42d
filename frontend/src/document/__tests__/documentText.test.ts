import { describe, expect, test } from "vitest";
import { documentTitle, linkHost, linkText } from "../documentText";

describe("linkText", () => {
  test("a web link reads as host — title", () => {
    expect(linkText("https://www.nature.com/articles/x1", "Queueing in emergency rooms")).toBe("nature.com — Queueing in emergency rooms");
  });

  test("a link whose text is its own address reads as the host", () => {
    expect(linkText("https://example.org/paper", "https://example.org/paper")).toBe("example.org");
    expect(linkText("http://example.org/", "example.org")).toBe("example.org");
    expect(linkText("https://example.org/a", "")).toBe("example.org");
  });

  test("other links keep their text", () => {
    expect(linkText("mailto:someone@example.org", "Write to us")).toBe("Write to us");
    expect(linkText("#section-7", "Knowledge graph")).toBe("Knowledge graph");
    expect(linkHost("javascript:alert(1)")).toBeNull();
  });
});

describe("documentTitle", () => {
  test("is the first level-one heading, unescaped", () => {
    expect(documentTitle("# Cut emergency wait times \\*without\\* more staff\n\n## 1. Problem")).toBe("Cut emergency wait times *without* more staff");
  });

  test("decodes the entities the server escapes HTML with", () => {
    expect(documentTitle("# Knowledge Document: Cut &lt;b&gt;waits&lt;/b&gt; &amp; queues")).toBe("Knowledge Document: Cut <b>waits</b> & queues");
  });

  test("reads a Chinese or Japanese document's title, whose prefix the server writes in the problem's language", () => {
    const zh = "# 知识文档：医院如何缩短急诊等待时间？\n\n- 会话：`s-1`\n\n## 直接回答\n\n## 7. 知识图谱\n\n```mermaid\ngraph LR\n```";
    const ja = "# ナレッジドキュメント：救急外来の待ち時間を\\*どう\\*減らすか\n\n## 1. 問題と枠組み";
    expect(documentTitle(zh)).toBe("知识文档：医院如何缩短急诊等待时间？");
    expect(documentTitle(ja)).toBe("ナレッジドキュメント：救急外来の待ち時間を*どう*減らすか");
  });

  test("ignores headings inside code blocks and lower levels", () => {
    expect(documentTitle("```\n# not a title\n```\n## Section\n# Real title")).toBe("Real title");
    expect(documentTitle("## Only sections")).toBeNull();
  });
});
