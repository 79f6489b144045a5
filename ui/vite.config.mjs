// Builds the dashboard (ui/) into dist/ui/, which the API server serves under /ui/
// (src/apiserver/dashboard/static-files.ts). Everything is bundled: nothing is fetched at run time.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/ui/',
  // No public/ folder: every file the page loads is a hashed asset.
  publicDir: false,
  build: {
    outDir: fileURLToPath(new URL('../dist/ui', import.meta.url)),
    emptyOutDir: true,
    // Everything as files under assets/: the Content-Security-Policy allows no inline data.
    assetsInlineLimit: 0,
    sourcemap: true,
    // The dashboard is loaded over loopback or a LAN: one bundle is fine, no size warnings needed.
    chunkSizeWarningLimit: 1024,
  },
});
