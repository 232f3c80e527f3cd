/**
 * The widget's module (anywidget's `render`): the Lab store and the page's components in a shadow
 * root, so the page's styles and the notebook's leave each other alone. Built by
 * `npm run build:widget` into the Python package (python/abrlab/static/lab.js), the wasm engine
 * and the engine worker inlined: nothing is fetched.
 */
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { EngineClient } from '../engine/EngineClient'
import { LabContext } from '../lab/hooks'
import { Lab } from '../lab/lab'
import { Run } from '../lab/run'
import type { Speed } from '../engine/protocol'
import { loadEngineInfo } from '../scenario/engineInfo'
import type { JsonObject } from '../scenario/paths'
import '../app/styles.css'
import './widget.css'
import { createInlineEngineWorker } from './engineWorker'
import { connectModel, type WidgetModel } from './model'
import { WidgetPage } from './WidgetPage'

/** The CSS of the page's components, put in by the library build (vite.widget.config.ts). */
declare const __ABRLAB_WIDGET_CSS__: string

function render({ model, el }: { model: WidgetModel; el: HTMLElement }): () => void {
  const shadow = el.attachShadow({ mode: 'open' })
  const style = document.createElement('style')
  style.textContent = __ABRLAB_WIDGET_CSS__
  const mount = document.createElement('div')
  mount.className = 'abrlab-widget'
  // Focusable, so that a click in the lab gives its shortcuts the keys.
  mount.tabIndex = -1
  shadow.append(style, mount)

  // The cell's height, from Python's `Lab.height` (and again whenever it changes).
  const resize = () => {
    mount.style.height = `${Number(model.get('height')) || 560}px`
  }
  resize()
  model.on('change:height', resize)
  const autoplay = model.get('autoplay') !== false
  const lab = new Lab(new Run(new EngineClient(createInlineEngineWorker)), autoplay)
  const speed = model.get('speed')
  if (speed === null || typeof speed === 'number') lab.run.setSpeed(speed as Speed)
  let stopped = false
  const disconnect = connectModel(lab, model)
  loadEngineInfo()
    .then((info) => {
      if (stopped) return
      lab.setInfo(info)
      lab.open(model.get('scenario') as JsonObject, { kind: 'file', name: 'the notebook' })
    })
    .catch((error: unknown) =>
      lab.setNotice({
        title: 'ABR Lab could not start',
        message: error instanceof Error ? error.message : String(error),
        errors: [],
      }),
    )
  const root = createRoot(mount)
  root.render(
    <StrictMode>
      <LabContext.Provider value={lab}>
        <WidgetPage keys={mount} />
      </LabContext.Provider>
    </StrictMode>,
  )
  return () => {
    stopped = true
    model.off('change:height', resize)
    disconnect()
    root.unmount()
    lab.run.dispose()
  }
}

export default { render }
