/** Accessibility: axe-core finds no violation on the page, the embed or any dialog. */
import AxeBuilder from '@axe-core/playwright'
import { expect, test } from './fixtures'
import type { Page } from '@playwright/test'

async function violations(page: Page, include?: string): Promise<string[]> {
  const builder = new AxeBuilder({ page })
  if (include) builder.include(include)
  const result = await builder.analyze()
  return result.violations.map(
    (v) =>
      `${v.id}: ${v.help} (${v.nodes
        .map((n) => n.target.join(' '))
        .slice(0, 3)
        .join(' | ')})`,
  )
}

for (const id of ['two-source-wan', 'ma-500-vcs', 'pletka-bat-tcp-udp']) {
  test(`axe: no violations on the main page (${id})`, async ({ lab, page }) => {
    await lab.open(`#scenario=${id}`)
    await lab.waitUntilLoaded()
    expect(await violations(page)).toEqual([])
  })
}

test('axe: no violations in the embed', async ({ lab, page }) => {
  await page.setViewportSize({ width: 640, height: 400 })
  await page.goto('/?embed#scenario=two-source-wan')
  await page.waitForFunction(() => window.__abrlab !== undefined)
  await lab.waitUntilLoaded()
  expect(await violations(page)).toEqual([])
})

test('axe: no violations in the library and share dialogs', async ({ lab, page }) => {
  await lab.open('#scenario=two-source-wan')
  await lab.waitUntilLoaded()
  await page.getByRole('button', { name: 'Library' }).click()
  await expect(page.locator('dialog[open]')).toHaveCount(1)
  expect(await violations(page, 'dialog[open]')).toEqual([])
  await page.keyboard.press('Escape')
  await page.getByRole('button', { name: 'Share' }).click()
  await expect(page.locator('dialog[open]')).toHaveCount(1)
  expect(await violations(page, 'dialog[open]')).toEqual([])
})

test('axe: no violations on a phone, the menu open, and in the embed with a node’s details shown', async ({
  lab,
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await lab.open('#scenario=ma-gfc')
  await lab.waitUntilLoaded()
  await page.getByRole('button', { name: 'Menu', exact: true }).click()
  await expect(page.getByRole('button', { name: 'Library' })).toBeVisible()
  expect(await violations(page)).toEqual([])
  await page.setViewportSize({ width: 640, height: 400 })
  await page.goto('/?embed#scenario=ma-gfc')
  await page.waitForFunction(() => window.__abrlab !== undefined)
  await lab.waitUntilLoaded()
  await page.locator('svg.topology g.node[data-node="SW3"]').focus()
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('node-details')).toContainText('Switch SW3')
  expect(await violations(page)).toEqual([])
})

test('axe: no violations with a VC selected, and with a switch selected', async ({ lab, page }) => {
  await lab.open('#scenario=two-source-wan')
  await lab.waitUntilLoaded()
  await lab.selectVc('vc1')
  await expect(page.locator('#params-abr')).toBeVisible()
  expect(await violations(page)).toEqual([])
  await lab.editNode('SW1').click()
  await expect(page.getByRole('heading', { name: 'Parameters of SW1' })).toBeVisible()
  expect(await violations(page)).toEqual([])
})
