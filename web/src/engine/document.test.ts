/**
 * The engine worker makes the page's operations with the page's own functions: what it imports
 * for that must load in a worker, with no React and no DOM.
 */
import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const src = fileURLToPath(new URL('..', import.meta.url))

/** The code of a module without its comments. */
function code(file: string): string {
  return readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '')
}

/** The modules `file` imports for their values (an `import type` brings none). */
function valueImports(file: string): string[] {
  const found: string[] = []
  for (const [, what, from] of code(file).matchAll(/^import\s+([\s\S]*?)\s+from\s+'([^']+)'/gm)) {
    if (what.startsWith('type ')) continue
    const named = what.match(/^\{([^}]*)\}$/)
    const names = named ? named[1].split(',').map((n) => n.trim()) : []
    if (named && names.filter(Boolean).every((n) => n.startsWith('type '))) continue
    found.push(from)
  }
  return found
}

/** Every module reached by value from `entry`: paths, or package names. */
function reached(entry: string): Set<string> {
  const seen = new Set<string>()
  const visit = (file: string) => {
    if (seen.has(file)) return
    seen.add(file)
    for (const spec of valueImports(file)) {
      const target = spec.startsWith('.') ? resolve(dirname(file), spec) : spec
      if (!spec.startsWith('.') || target.endsWith('.js')) seen.add(target)
      else visit(`${target}.ts`)
    }
  }
  visit(entry)
  return seen
}

describe("the worker's document", () => {
  it('reaches no React, no component and no DOM through the operations it makes', () => {
    const modules = [...reached(resolve(src, 'engine/document.ts'))]
    expect(modules).toContain(resolve(src, 'lab/operation.ts'))
    expect(modules).toContain(resolve(src, 'editor/ops.ts'))
    // No package (React or another) and no component: only the project's own modules.
    expect(modules.filter((m) => !m.startsWith(src))).toEqual([])
    for (const file of modules.filter((m) => m.endsWith('.ts'))) {
      expect(code(file), file).not.toMatch(/\b(document|window|localStorage|navigator)\.\w/)
    }
  })
})
