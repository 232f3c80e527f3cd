/**
 * The repository explains itself: every tracked text file (code, docs, scripts, scenarios,
 * tests) refers only to what the repository holds. A path to a file of the repository must
 * name a file that exists; a citation of a document outside it (a product specification or a
 * style guide by section) or of a numbered issue of a tracker says nothing to a reader of the
 * clone, so the reason or the paper (authors, title, section) stands there instead.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { posix } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../../../', import.meta.url))
const self = 'web/src/test/references.test.ts'

const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
  .split('\0')
  .filter((f) => f !== '')

/** Text files a reader reads: everything but images, lock files and the pinned results. */
const texts = tracked.filter(
  (f) =>
    f !== self &&
    !/\.(png|jpe?g|gif|ico|wasm|profdata)$/.test(f) &&
    !f.endsWith('package-lock.json') &&
    !f.endsWith('Cargo.lock'),
)

interface Finding {
  file: string
  line: number
  text: string
}

/** Every line of the text files matching `pattern`, unless `allow` excuses the match. */
function scan(pattern: RegExp, allow: (match: string, line: string) => boolean = () => false) {
  const found: Finding[] = []
  for (const file of texts) {
    let body: string
    try {
      body = readFileSync(`${root}${file}`, 'utf8')
    } catch {
      continue // listed by git but not in this checkout (a deletion not yet committed)
    }
    body.split('\n').forEach((text, i) => {
      for (const m of text.matchAll(pattern)) {
        if (!allow(m[1] ?? m[0], text)) found.push({ file, line: i + 1, text: text.trim() })
      }
    })
  }
  return found.map((f) => `${f.file}:${f.line}: ${f.text.slice(0, 160)}`)
}

/** A path of the repository: folders and a file name with a source or document ending. */
const PATH =
  /(?<![\w/.:@-])((?:\.{1,2}\/)*[\w.-]+(?:\/[\w.-]+)+\.(?:rs|ts|tsx|mjs|js|json|md|sh|toml|css|html))\b/g

/** Paths that are not this repository's: generated or installed files, other projects' files. */
function external(path: string, line: string): boolean {
  if (/(^|\/)(node_modules|pkg|target|test-results)\//.test(path)) return true
  const before = line.slice(0, line.indexOf(path))
  return /https?:\/\/\S*$/.test(before) || /\b(excalidraw|smoltcp)\s+`?$/.test(before)
}

function resolves(path: string): boolean {
  const p = path.replace(/^(\.{1,2}\/)+/, '')
  return tracked.some((f) => f === p || f.endsWith(`/${p}`))
}

describe('references inside the repository', () => {
  it('finds the files to read', () => {
    expect(texts.length).toBeGreaterThan(200)
    expect(texts).toContain('README.md')
  })

  it('names only files that exist', () => {
    expect(scan(PATH, (path, line) => external(path, line) || resolves(path))).toEqual([])
  })

  it('links, in Markdown, only to files that exist', () => {
    const broken: string[] = []
    for (const file of texts.filter((f) => f.endsWith('.md'))) {
      const dir = posix.dirname(file)
      readFileSync(`${root}${file}`, 'utf8')
        .split('\n')
        .forEach((text, i) => {
          for (const m of text.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)) {
            const target = m[1]
            if (/^[a-z]+:/.test(target)) continue
            const p = posix.normalize(posix.join(dir, target)).replace(/\/$/, '')
            const exists = tracked.some((f) => f === p || f.startsWith(`${p}/`))
            if (!exists) broken.push(`${file}:${i + 1}: ${target}`)
          }
        })
    }
    expect(broken).toEqual([])
  })

  it('cites no section of a specification that is not in the repository', () => {
    expect(scan(/\bSPEC\b(?: ?§|\/)/g)).toEqual([])
  })

  it('cites no style guide that is not in the repository', () => {
    expect(scan(/\bSTYLE(?:\.md\b|:)/g)).toEqual([])
  })

  it('gives reasons, not issue numbers', () => {
    expect(scan(/\b[Ii]ssues? #?\d+/g)).toEqual([])
  })

  it('catches what it looks for', () => {
    const line = 'see scenario/parse.rs and the-book/no-such-file.md'
    const paths = [...line.matchAll(PATH)].map((m) => m[1])
    expect(paths).toEqual(['scenario/parse.rs', 'the-book/no-such-file.md'])
    expect(paths.filter((p) => !resolves(p))).toEqual(paths)
    expect(resolves('cell/scenario/read.rs')).toBe(true)
    expect(external('node_modules/x/package.json', '')).toBe(true)
    expect(/\b[Ii]ssues? #?\d+/.test('fixed in issue #12')).toBe(true)
  })
})
