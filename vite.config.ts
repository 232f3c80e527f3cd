import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

const repoRoot = fileURLToPath(new URL('.', import.meta.url))

export default defineConfig({
  root: 'web',
  plugins: [react()],
  // Static files served as they are at the site root (the Vite root is web/, the assets live at
  // the top level).
  publicDir: '../public',
  // The scenario library lives in ../scenarios, outside the Vite root; allow the dev server to read it.
  server: { fs: { allow: [repoRoot] } },
  // `npm start` serves the production build here; the e2e tests use their own port (playwright.config.ts).
  preview: { port: 4173, strictPort: true, host: 'localhost' },
  worker: { format: 'es' },
  build: {
    outDir: '../dist',
    emptyOutDir: true,
    target: 'es2022',
  },
})
