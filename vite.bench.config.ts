/**
 * The benchmark's build (scripts/bench.mjs): the app exactly as `vite.config.ts` builds it, plus
 * the benchmark page web/bench.html, into dist-bench/ so that the app's own dist/ is left alone.
 */
import { fileURLToPath } from 'node:url'
import { defineConfig, loadConfigFromFile, mergeConfig } from 'vite'

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url))

export default defineConfig(async (env) => {
  const loaded = await loadConfigFromFile(env, here('./vite.config.ts'))
  if (!loaded) throw new Error('vite.config.ts did not load')
  return mergeConfig(loaded.config, {
    build: {
      outDir: '../dist-bench',
      rolldownOptions: {
        input: { main: here('./web/index.html'), bench: here('./web/bench.html') },
      },
    },
  })
})
