/** The shapes of the Lab store's state (lab/lab.ts). */
import type { PinnedRun } from '../charts/chartContext'
import type { History } from '../editor/history'
import type { EditedState } from '../scenario/edited'
import type { EngineInfo } from '../scenario/engineInfo'
import type { JsonObject } from '../scenario/paths'
import type { Notice, Origin } from '../scenario/restore'
import type { Selection } from '../scenario/doc'

/** What the last change did to the run, in words (the status line). */
export interface Announcement {
  text: string
  /** live: taken by the running simulation; restart: the run started again; info: neither. */
  tone: 'live' | 'restart' | 'info' | 'error'
  /** Bumped on every announcement, so repeating the same words is still announced. */
  serial: number
}

/** A parameter the running simulation took without restarting. */
export interface LiveMark {
  atMs: number
  text: string
  /** The run it belongs to (a mark disappears when the run is rebuilt). */
  run: object | null
}

export type SideTab = 'params' | 'about'
/** The views beside the drawing. */
export type MainView = 'charts' | 'sweep' | 'guide' | 'glossary'

export interface LabView {
  info: EngineInfo | null
  scenario: JsonObject | null
  origin: Origin | null
  notice: Notice | null
  selection: Selection | null
  tab: SideTab
  view: MainView
  /** The VCs picked in the charts' series picker (undefined: all). */
  picked: ReadonlySet<string> | undefined
  pinned: PinnedRun | null
  liveMarks: readonly LiveMark[]
  /** The document against the library file it names (null: none to compare with). */
  edited: EditedState | null
  /** True once the document differs from what the URL names (the URL then carries it). */
  differs: boolean
  history: History
  announcement: Announcement | null
  /** The name of the current run: a compared or swept run's label, else the scenario's title. */
  runLabel: string | null
}

export interface ReplaceOptions {
  /** Where the new document comes from (default: where the current one came from). */
  origin?: Origin
  /** Play the new run as soon as it is built. */
  play?: boolean
  /** The new document differs from what the URL names (default true; false for a library file as it is). */
  differs?: boolean
  /** The run to pin beside the new one (default: the run so far, if it has any samples). */
  pinned?: PinnedRun | null
  /** The new run's name (default: its scenario's title). */
  runLabel?: string
}
