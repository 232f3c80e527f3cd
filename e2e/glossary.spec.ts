/**
 * The plain-words glossary: every acronym the main page shows, counted from the page's own text
 * (the default scenario, its About tab and its Parameters tab), has an entry; the Glossary tab
 * lists them with their sources; a term in the drawing's legend explains itself on focus.
 */
import { GLOSSARY, lookup } from '../web/src/glossary/terms'
import { expect, test } from './fixtures'

/** Words of two or more capitals (ABR, ERICA+, TM), less the scenario's own element ids. */
function acronyms(text: string, ids: ReadonlySet<string>): string[] {
  const found = new Set<string>()
  for (const m of text.matchAll(
    /(?<![\w-])([A-Z][A-Z0-9_]*[A-Z][A-Z0-9_]*\+?|[A-Z][a-z]rm)(?![\w-])/g,
  )) {
    const word = m[1]
    if (!ids.has(word) && !/^[A-Z]+\d+$/.test(word)) found.add(word)
  }
  return [...found].sort()
}

test('every acronym on the main page has a glossary entry, and the Glossary tab lists them', async ({
  lab,
  page,
}) => {
  await lab.open()
  await lab.waitUntilLoaded()
  const doc = await lab.scenario()
  const ids = new Set<string>(
    ['nodes', 'links', 'vcs'].flatMap((k) =>
      ((doc as unknown as Record<string, { id: string }[]>)[k] ?? []).map((x) => x.id),
    ),
  )
  // The text as shown (innerText leaves out hidden panels and tooltips, as a reader does).
  // biome-ignore lint/performance/useDomNodeTextContent: the visible text is the point
  let text = await page.locator('body').innerText()
  await page.getByRole('tab', { name: 'Parameters' }).click()
  // biome-ignore lint/performance/useDomNodeTextContent: the visible text is the point
  text += await page.locator('body').innerText()
  // A label the style sheet writes in capitals ("RESTARTS") is a word, not an acronym: keep the
  // words written in capitals in the page itself.
  const raw = await page.evaluate(() => document.body.textContent ?? '')
  const words = acronyms(text, ids).filter((w) => raw.includes(w))
  expect(words.length).toBeGreaterThan(8)
  const missing = words.filter(
    (w) => lookup(w) === undefined && lookup(w.replace(/\+$/, '')) === undefined,
  )
  expect(missing, `acronyms without an entry: ${missing.join(', ')}`).toEqual([])
  for (const must of ['ABR', 'ACR', 'PCR', 'RIF', 'ERICA', 'FRM', 'BRM'])
    expect(words).toContain(must)

  await page.getByRole('tab', { name: 'Glossary' }).click()
  await expect(page.getByTestId('glossary-entry')).toHaveCount(GLOSSARY.length)
  const acr = page.locator('[data-testid="glossary-entry"][data-term="ACR"]')
  await expect(acr).toContainText('Allowed Cell Rate')
  await expect(acr).toContainText('§2')

  // Where it appears: focus the legend's FRM and its explanation shows.
  const frm = page.locator('.term[data-term="FRM"]').first()
  await frm.focus()
  await expect(page.getByRole('tooltip')).toContainText('Forward RM cell')
  await page.screenshot({ path: 'e2e/artifacts/glossary-1280x720.png' })
})
