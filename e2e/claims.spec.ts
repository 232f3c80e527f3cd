/**
 * The About tab's paper claims (scenarios/README.md, "Paper claims"): played, two-source-wan's claims go from "pending" to ✓
 * or ✗ as the run passes their windows, judged by the engine on the run that is playing.
 */
import { expect, test } from './fixtures'

test('About tab: two-source-wan’s paper claims turn from pending to ✓ as the run passes their windows', async ({
  lab,
  page,
}) => {
  await lab.open('#scenario=two-source-wan')
  await lab.waitUntilLoaded()
  await page.getByRole('tab', { name: 'About this scenario' }).click()
  const table = page.getByRole('region', { name: 'Paper claims' })
  const alone = table.getByTestId('claim-s1-alone-140')
  const back = table.getByTestId('claim-s1-back-140')
  await expect(alone).toHaveAttribute('data-status', 'pending')
  await expect(alone).toContainText('Fahmy, Jain, Goyal & Vandalore')
  await expect(alone).toContainText('140 ± 3% Mbit/s')

  await lab.playToEnd()
  // S1 alone holds 140 Mbit/s over 60–95 ms, and again after S2 leaves (260–300 ms).
  await expect(alone).toHaveAttribute('data-status', 'held')
  await expect(alone.locator('td').last()).toHaveText('✓')
  await expect(back).toHaveAttribute('data-status', 'held')
  // Nothing is pending at the end and no claim expected to hold fails.
  await expect(table.getByTestId('claims-totals')).toContainText('0 failing')
  await expect(table.locator('tr[data-status="pending"]')).toHaveCount(0)
})
