/**
 * The edits a component dispatches to the Lab (`lab.apply(op)`), as typed operations: a parameter
 * set by the path its field knows, the structural edits of the drawing and the lecture, a variant,
 * a whole scenario. `change` turns one into what it does to the current document — assignments
 * with their exact inverse for a parameter, the new document for a structural edit — without
 * validating anything: the engine worker does that once (lab/carry.ts). The worker makes the same
 * operations on its own copy of the document with `change` (engine/document.ts), so this module
 * and what it imports stay free of React and the DOM.
 */
import {
  addLink,
  addNode,
  addVc,
  adoptPositions,
  type Edit,
  type LinkDefaults,
  moveNode,
  removeSelected,
} from '../editor/ops'
import { addStop, editStop, removeStop } from '../lecture/stops'
import { type Assignment, assign, changesNothing } from '../scenario/assign'
import type { NodeKind, Selection } from '../scenario/doc'
import { isObject, type Json, type JsonObject, PathError } from '../scenario/paths'

export type { Assignment }

type Point = { x: number; y: number }
/** The drawing's automatic layout, written into the document by the first move or addition. */
type Positions = ReadonlyMap<string, Point>

export type Operation =
  /** One parameter, at the path its field knows. */
  | { op: 'set'; path: string; value: Json; label: string }
  /**
   * Several assignments as one step: a value on every VC, a knob given to a port that inherited
   * its algorithm, a setting removed (its value undefined).
   */
  | { op: 'assign'; sets: readonly Assignment[]; label: string }
  | { op: 'moveNode'; id: string; x: number; y: number; positions?: Positions }
  | { op: 'addNode'; kind: NodeKind; at: Point; positions?: Positions }
  | { op: 'addLink'; a: string; b: string; defaults: LinkDefaults }
  | { op: 'addVc'; path: readonly string[] }
  /** Removes a node (with its links and routes), a link (with its routes) or a VC. */
  | { op: 'remove'; selection: Selection }
  | { op: 'addStop'; tMs: number; title: string; text: string }
  | { op: 'editStop'; index: number; title: string; text: string }
  | { op: 'removeStop'; index: number }
  | { op: 'variant'; id: string; label: string }
  /** Another scenario in place of this one. */
  | { op: 'replace'; scenario: JsonObject; label: string }

/**
 * How far a change reaches: `engine`, the run (taken live or rebuilt); `lecture`, what the engine
 * checks but does not run (stops, questions, the view); `layout`, node positions only.
 */
export type Reach = 'engine' | 'lecture' | 'layout'

export type Change =
  | {
      kind: 'assign'
      sets: readonly Assignment[]
      /** The assignments that undo it exactly. */
      inverse: readonly Assignment[]
      scenario: JsonObject
      label: string
      reach: Reach
    }
  | {
      kind: 'document'
      scenario: JsonObject
      label: string
      /** What else changed with it (removed VCs, dropped variants), if anything. */
      detail?: string
      /** What to select afterwards; undefined keeps the selection. */
      select?: Selection | null
      reach: Reach
    }

/** What an operation does to `doc`: a change, a refusal (why), or null when it changes nothing. */
export type Outcome = Change | { refused: string } | null

/** What the engine reads: not the view, a node's position or the lecture. */
const UNREAD = /^(view|nodes|stops|questions)(\.|$)/

export function reachOf(sets: readonly Assignment[]): Reach {
  return sets.every((s) => UNREAD.test(s.path)) ? 'lecture' : 'engine'
}

function assignment(doc: JsonObject, sets: readonly Assignment[], label: string): Outcome {
  if (changesNothing(doc, sets)) return null
  try {
    const { scenario, inverse } = assign(doc, sets)
    return { kind: 'assign', sets, inverse, scenario, label, reach: reachOf(sets) }
  } catch (error) {
    if (error instanceof PathError) return { refused: error.message }
    throw error
  }
}

function edited(edit: Edit, reach: Reach): Outcome {
  if (!edit.ok) return { refused: edit.message }
  const { scenario, label, detail, select } = edit
  return { kind: 'document', scenario, label, detail, select, reach }
}

export function change(doc: JsonObject, op: Operation): Outcome {
  switch (op.op) {
    case 'set':
      return assignment(doc, [{ path: op.path, value: op.value }], op.label)
    case 'assign':
      return assignment(doc, op.sets, op.label)
    case 'moveNode': {
      const base = op.positions ? adoptPositions(doc, op.positions) : doc
      return edited(moveNode(base, op.id, op.x, op.y), 'layout')
    }
    case 'addNode':
      return edited(
        addNode(op.positions ? adoptPositions(doc, op.positions) : doc, op.kind, op.at),
        'engine',
      )
    case 'addLink':
      return edited(addLink(doc, op.a, op.b, op.defaults), 'engine')
    case 'addVc':
      return edited(addVc(doc, op.path), 'engine')
    case 'remove':
      return edited(removeSelected(doc, op.selection), 'engine')
    case 'addStop':
      return edited(addStop(doc, op.tMs, op.title, op.text), 'lecture')
    case 'editStop':
      return edited(editStop(doc, op.index, op.title, op.text), 'lecture')
    case 'removeStop':
      return edited(removeStop(doc, op.index), 'lecture')
    case 'variant': {
      // A variant is the values it sets, applied to the scenario as it stands.
      const variants = Array.isArray(doc.variants) ? doc.variants : []
      const variant = variants.find((v) => isObject(v) && v.id === op.id)
      if (!isObject(variant)) return { refused: `variants: no variant '${op.id}'` }
      const set = isObject(variant.set) ? variant.set : {}
      const sets = Object.entries(set).map(([path, value]) => ({ path, value }))
      return assignment(doc, sets, op.label)
    }
    case 'replace':
      return { kind: 'document', scenario: op.scenario, label: op.label, reach: 'engine' }
  }
}

/** A set of one value, or the assignments as one step. */
export function assigning(sets: readonly Assignment[], label: string): Operation {
  const [one] = sets
  return sets.length === 1 && one.value !== undefined
    ? { op: 'set', path: one.path, value: one.value, label }
    : { op: 'assign', sets, label }
}

/**
 * Applies an operation through the Lab: resolves with null when the engine accepted it, else the
 * reason it was refused. `key` makes a quick run of the same change one undo step.
 */
export type ApplyOp = (op: Operation, key?: string) => Promise<string | null>
