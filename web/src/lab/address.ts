/**
 * The Lab and the page's address: what the URL hash names is opened (again on every hashchange),
 * and once the scenario differs from it, the address carries the scenario as edited, so a reload
 * or a bookmark keeps it.
 */
import { getPresentation } from '../app/presentation'
import { loadEngineInfo } from '../scenario/engineInfo'
import { restoreInWorker } from '../scenario/check'
import { shareHash } from '../scenario/shareLink'
import type { Lab } from './lab'

/** The share link's hash for the scenario and view as they are now. */
export function labHash(lab: Lab): Promise<string> {
  const { scenario, selection, tab } = lab.get()
  if (!scenario) return Promise.reject(new Error('no scenario is open'))
  return shareHash({
    scenario,
    view: {
      selection,
      speed: lab.run.get().speed,
      tab,
      ...(getPresentation().on ? { present: true } : {}),
    },
  })
}

/**
 * Loads the engine's registry, opens what the hash names, and follows the hash from then on;
 * with `track`, keeps the address up to date. Returns the function that stops all of it.
 */
export function connectAddress(lab: Lab, track: boolean): () => void {
  let stopped = false
  // The address that reopens the scenario open now (as edited, once the address carries the
  // edit): a link that cannot be opened puts it back, so that a reload keeps what the reader had.
  const openHash = { current: '' }
  // Whether a scenario is open already: a link followed later that cannot be opened leaves it
  // open (nothing the reader had is lost) rather than replacing it with the default.
  let opened = false
  const restore = async () => {
    const info = await loadEngineInfo()
    if (stopped) return
    lab.setInfo(info)
    // Read and checked in a worker within a time budget: a hostile link never holds the page.
    const restored = await restoreInWorker(window.location.hash)
    if (stopped) return
    if (opened && restored.rejected) {
      const { pathname, search } = window.location
      window.history.replaceState(null, '', `${pathname}${search}${openHash.current}`)
      lab.setNotice({
        ...restored.rejected,
        message: `The scenario you had is still open. ${restored.rejected.message}`,
      })
      return
    }
    lab.setNotice(restored.notice)
    lab.open(restored.scenario, restored.origin, restored.view)
    // A hash that opened nothing (the default, with a message) is not one to put back.
    openHash.current = restored.rejected ? '' : window.location.hash
    opened = true
  }
  const follow = () => {
    restore().catch((error: unknown) => {
      if (stopped) return
      lab.setNotice({
        title: 'ABR Lab could not start',
        message: error instanceof Error ? error.message : String(error),
        errors: [],
      })
    })
  }
  follow()
  window.addEventListener('hashchange', follow)
  const untrack = track ? trackAddress(lab, openHash) : () => undefined
  return () => {
    stopped = true
    window.removeEventListener('hashchange', follow)
    untrack()
  }
}

/** Writes the share link into the address whenever what it carries changes. */
function trackAddress(lab: Lab, openHash: { current: string }): () => void {
  let seen: unknown[] = []
  let timer: number | null = null
  let idle: number | null = null
  let serial = 0
  const cancel = () => {
    if (timer !== null) window.clearTimeout(timer)
    if (idle !== null) window.cancelIdleCallback(idle)
    timer = null
    idle = null
    serial += 1
  }
  const write = () => {
    idle = null
    const mine = serial
    labHash(lab)
      .then((hash) => {
        if (mine !== serial) return
        window.history.replaceState(null, '', hash)
        openHash.current = hash
      })
      .catch(() => undefined)
  }
  const check = () => {
    const { scenario, differs, selection, tab } = lab.get()
    const now = [scenario, differs, selection, tab, lab.run.get().speed]
    if (now.every((v, i) => v === seen[i])) return
    seen = now
    cancel()
    if (!differs || !scenario) return
    // When the page has a moment: encoding 500 VCs right after an edit held up the next slider
    // step and the engine's answer while the run streams in. Within 2 s regardless.
    timer = window.setTimeout(() => {
      timer = null
      if (typeof window.requestIdleCallback === 'function')
        idle = window.requestIdleCallback(write, { timeout: 2000 })
      else write()
    }, 400)
  }
  const offLab = lab.subscribe(check)
  const offRun = lab.run.subscribe(check)
  return () => {
    offLab()
    offRun()
    cancel()
  }
}
