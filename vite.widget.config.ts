/**
 * The lab as a Jupyter widget (`abrlab.Lab`): a library build of web/src/widget/ into ONE ES
 * module inside the Python package, python/abrlab/static/lab.js (git-ignored; `npm run
 * build:widget`). anywidget loads that one module and nothing beside it, so everything is in it:
 * the wasm engine (a library build inlines assets as data: URLs), the engine worker
 * (`?worker&inline`, started from a blob URL, its own wasm inlined the same way), and the CSS,
 * which goes into the widget's shadow root rather than the notebook's page.
 */
import react from '@vitejs/plugin-react'
import { defineConfig, type Plugin } from 'vite'

const CSS_MARK = '__ABRLAB_WIDGET_CSS__'

/**
 * Moves the build's one CSS file into the module, as the string the widget puts in its shadow
 * root. The page's document-wide rules apply to the shadow root's host there: `:root` (colours,
 * font) becomes `:host`, and `body` (the page's margin) the widget's own box.
 */
function cssIntoModule(): Plugin {
  return {
    name: 'abrlab-widget-css',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const sheets = Object.values(bundle).filter(
        (file) => file.type === 'asset' && file.fileName.endsWith('.css'),
      )
      const css = sheets
        .map((file) => (file.type === 'asset' ? String(file.source) : ''))
        .join('\n')
        .replace(/:root\b/g, ':host')
        .replace(/(^|[\s,}])body(?=\s*[{,])/g, '$1.abrlab-widget')
      for (const file of sheets) delete bundle[file.fileName]
      const chunks = Object.values(bundle).filter((file) => file.type === 'chunk')
      const marked = chunks.filter(
        (chunk) => chunk.type === 'chunk' && chunk.code.includes(CSS_MARK),
      )
      if (marked.length !== 1)
        this.error(`expected one chunk reading ${CSS_MARK}, found ${marked.length}`)
      for (const chunk of marked)
        if (chunk.type === 'chunk')
          chunk.code = chunk.code.split(CSS_MARK).join(JSON.stringify(css))
      // Workers of modules the widget reaches but never starts (the page's scenario checker) are
      // emitted beside it, unreferenced: left out. Anything the module does refer to stays, and
      // fails the build, since anywidget would not load it.
      const code = marked.map((chunk) => (chunk.type === 'chunk' ? chunk.code : '')).join('')
      for (const file of Object.values(bundle)) {
        if (file.fileName === 'lab.js') continue
        const base = file.fileName.split('/').pop() ?? file.fileName
        if (code.includes(base))
          this.error(`lab.js refers to ${file.fileName}, which anywidget cannot load`)
        delete bundle[file.fileName]
      }
    },
  }
}

export default defineConfig({
  root: 'web',
  plugins: [react(), cssIntoModule()],
  publicDir: false,
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  worker: { format: 'es' },
  build: {
    outDir: '../python/abrlab/static',
    emptyOutDir: true,
    target: 'es2022',
    cssCodeSplit: false,
    copyPublicDir: false,
    lib: {
      entry: 'src/widget/index.tsx',
      formats: ['es'],
      fileName: () => 'lab.js',
    },
    rolldownOptions: { output: { codeSplitting: false } },
  },
})
