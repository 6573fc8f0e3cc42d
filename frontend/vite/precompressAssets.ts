/**
 * A build step that writes `x.br` and `x.gz` beside each text asset of the build (JS, CSS, SVG,
 * JSON), so the server sends them compressed without compressing on every request
 * (forge/api/serve_spa.py picks one by `Accept-Encoding`). Brotli at its best quality and gzip at
 * level 9 run once per build; a file too small to gain, or that does not shrink, gets none.
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { Plugin, ResolvedConfig } from "vite";

const COMPRESSIBLE = /\.(js|mjs|css|svg|json|txt|html)$/;
const MIN_BYTES = 1024;

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(entries.map((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : Promise.resolve([join(dir, e.name)]))));
  return nested.flat();
}

export async function precompressDirectory(dir: string): Promise<{ files: number; before: number; brotli: number }> {
  const totals = { files: 0, before: 0, brotli: 0 };
  for (const file of await filesUnder(dir)) {
    if (!COMPRESSIBLE.test(file)) continue;
    const raw = await readFile(file);
    if (raw.length < MIN_BYTES) continue;
    const br = brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } });
    const gz = gzipSync(raw, { level: 9 });
    if (br.length < raw.length) await writeFile(`${file}.br`, br);
    if (gz.length < raw.length) await writeFile(`${file}.gz`, gz);
    totals.files += 1;
    totals.before += raw.length;
    totals.brotli += Math.min(br.length, raw.length);
  }
  return totals;
}

export function precompressAssets(): Plugin {
  let config: ResolvedConfig;
  return {
    name: "forge-precompress-assets",
    apply: "build",
    configResolved(resolved) {
      config = resolved;
    },
    async closeBundle() {
      const outDir = resolve(config.root, config.build.outDir);
      const { files, before, brotli } = await precompressDirectory(join(outDir, config.build.assetsDir));
      config.logger.info(`precompressed ${files} assets: ${(before / 1024).toFixed(0)} kB → ${(brotli / 1024).toFixed(0)} kB brotli`);
    },
  };
}
