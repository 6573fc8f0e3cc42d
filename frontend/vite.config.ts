// Vite: dev server proxies /api to the backend; `build` writes the SPA where the backend serves it,
// each text asset beside its precompressed .br and .gz.
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import { precompressAssets } from "./vite/precompressAssets";

const backend = process.env.FORGE_BACKEND_URL ?? "http://127.0.0.1:8000";

export default defineConfig({
  plugins: [react(), tailwindcss(), precompressAssets()],
  build: {
    outDir: fileURLToPath(new URL("../backend/forge/api/spa", import.meta.url)),
    emptyOutDir: true,
    sourcemap: true,
  },
  server: {
    port: 5173,
    proxy: { "/api": { target: backend, changeOrigin: false } },
  },
});
