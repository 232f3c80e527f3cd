/**
 * Text from outside the page — a link's hash, a loaded file — is read and checked in a worker of
 * its own (checkWorker.ts), never on the page's thread, and within a time budget: a hostile text
 * that would take the reader long is refused when the budget runs out (the worker is terminated
 * and a fresh one takes the next check), the page drawing and answering all along.
 */
import type { ScenarioError } from '../engine/protocol'
import type { JsonObject } from './paths'
import { fallback, type Restored } from './restore'

/** Wall time a check may take before it is refused. */
export const CHECK_BUDGET_MS = 10_000

export type CheckRequest = { type: 'hash'; hash: string } | { type: 'text'; text: string }

export type ReadResult = { ok: true; scenario: JsonObject } | { ok: false; errors: ScenarioError[] }

export type CheckReply =
  | { type: 'hash'; restored: Restored }
  | { type: 'text'; read: ReadResult }
  | { type: 'failed'; message: string }

function createCheckWorker(): Worker {
  return new Worker(new URL('./checkWorker.ts', import.meta.url), {
    type: 'module',
    name: 'abr-check',
  })
}

function tooSlow(what: string, budgetMs: number): string {
  return `checking ${what} took longer than ${budgetMs / 1000} s, so it was not opened`
}

/** The checker, kept between checks (its engine loads once); replaced after one ran out of time. */
let checker: Worker | null = null
/** Checks one after another: a check's budget starts when the checker takes it. */
let queue: Promise<unknown> = Promise.resolve()

/** Runs one check in the checker; resolves with its reply, or null when out of time. */
function check(request: CheckRequest, budgetMs: number): Promise<CheckReply | null> {
  const run = () =>
    new Promise<CheckReply | null>((resolve) => {
      checker ??= createCheckWorker()
      const worker = checker
      const finish = (reply: CheckReply | null) => {
        window.clearTimeout(timer)
        worker.onmessage = null
        worker.onerror = null
        if (reply === null || reply.type === 'failed') {
          // Out of time, or broken: a hostile text must not hold the next check up.
          worker.terminate()
          if (checker === worker) checker = null
        }
        resolve(reply)
      }
      const timer = window.setTimeout(() => finish(null), budgetMs)
      worker.onmessage = (event: MessageEvent<CheckReply>) => finish(event.data)
      worker.onerror = (event) => {
        event.preventDefault()
        finish({ type: 'failed', message: event.message || 'the checker could not start' })
      }
      worker.postMessage(request)
    })
  const result = queue.then(run, run)
  queue = result
  return result
}

/** What the page's address names, read and checked off the page's thread (restore.ts). */
export async function restoreInWorker(
  hash: string,
  budgetMs: number = CHECK_BUDGET_MS,
): Promise<Restored> {
  const reply = await check({ type: 'hash', hash }, budgetMs)
  if (reply?.type === 'hash') return reply.restored
  const message = reply?.type === 'failed' ? reply.message : tooSlow('the link', budgetMs)
  return fallback({ title: 'This link could not be opened', message: `${message}.`, errors: [] })
}

/** Scenario text (a loaded file) read and checked off the page's thread. */
export async function readInWorker(
  text: string,
  budgetMs: number = CHECK_BUDGET_MS,
): Promise<ReadResult> {
  const reply = await check({ type: 'text', text }, budgetMs)
  if (reply?.type === 'text') return reply.read
  const message = reply?.type === 'failed' ? reply.message : tooSlow('the file', budgetMs)
  return { ok: false, errors: [{ path: '', message }] }
}
