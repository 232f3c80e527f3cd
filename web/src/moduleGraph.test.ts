/**
 * The page's modules, checked from their source: no module imports one that imports it back,
 * directly or round a longer loop (type-only imports count: a loop of types is a loop of ideas).
 * A collaborator that needs its owner (the Lab's carrier and lecture) names what it needs in an
 * interface of its own instead of importing the owner. The engine's own layers are held the same
 * way by `engine-wasm/crates/sim-core/tests/module_graph.rs`.
 *
 * Imports are read with the TypeScript compiler's own pre-processor (`ts.preProcessFile`: static,
 * re-exported and dynamic imports), not with a pattern of our own.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(__dirname)
const EXTENSIONS = ['.ts', '.tsx']

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) {
      // The wasm bindings are generated; the test helpers are not part of the page.
      if (name !== 'pkg' && name !== 'test') sourceFiles(path, out)
    } else if (EXTENSIONS.some((e) => name.endsWith(e)) && !/\.test\.tsx?$/.test(name)) {
      out.push(path)
    }
  }
  return out
}

/** The file a relative specifier names, or null for a package or a non-source file. */
function resolveImport(from: string, specifier: string, files: ReadonlySet<string>): string | null {
  if (!specifier.startsWith('.')) return null
  const base = resolve(dirname(from), specifier)
  const candidates = [
    base,
    ...EXTENSIONS.map((e) => base + e),
    ...EXTENSIONS.map((e) => base.replace(/\.js$/, e)),
    ...EXTENSIONS.map((e) => join(base, `index${e}`)),
  ]
  return candidates.find((c) => files.has(c)) ?? null
}

function importGraph(): Map<string, string[]> {
  const files = sourceFiles(ROOT)
  const known = new Set(files)
  const graph = new Map<string, string[]>()
  for (const file of files) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true)
    const targets = info.importedFiles
      .map((f) => resolveImport(file, f.fileName, known))
      .filter((t): t is string => t !== null && t !== file)
    graph.set(file, [...new Set(targets)])
  }
  return graph
}

/** The strongly connected components with more than one module (Tarjan's algorithm). */
function loops(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  const visit = (v: string): void => {
    index.set(v, next)
    low.set(v, next)
    next += 1
    stack.push(v)
    onStack.add(v)
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0))
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0))
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = []
      let w: string | undefined
      do {
        w = stack.pop()
        if (w === undefined) break
        onStack.delete(w)
        component.push(w)
      } while (w !== v)
      if (component.length > 1) found.push(component.map((f) => relative(ROOT, f)).sort())
    }
  }
  for (const v of graph.keys()) if (!index.has(v)) visit(v)
  return found
}

describe('the page’s module graph', () => {
  const graph = importGraph()

  it('reads the imports of every module', () => {
    // A sanity check on the reading itself: the page's entry reaches the app, the app the lab.
    expect(graph.size).toBeGreaterThan(100)
    const main = graph.get(join(ROOT, 'main.tsx')) ?? []
    expect(main.length).toBeGreaterThan(0)
  })

  it('has no import loop', () => {
    expect(loops(graph)).toEqual([])
  })

  it('finds a loop when there is one', () => {
    const a = join(ROOT, 'a.ts')
    const b = join(ROOT, 'b.ts')
    const c = join(ROOT, 'c.ts')
    expect(
      loops(
        new Map([
          [a, [b]],
          [b, [c]],
          [c, [a]],
        ]),
      ),
    ).toEqual([['a.ts', 'b.ts', 'c.ts']])
  })
})
