/**
 * The lab in a notebook: JupyterLab from the repository's `.venv` (scripts/python-env.sh makes it,
 * `npm test` runs it before this), on a free localhost port with no token, over a temporary folder
 * holding a notebook this test writes. The widget cell draws the network and the ACR curve moves
 * as the engine runs in the browser; `lab.set` reaches the running simulation, which takes it
 * live (or restarts with it), and the document comes back to Python with the new value; the
 * samples the browser pushed have the columns of `abrlab.run(...).samples`.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, type Page, test } from '@playwright/test'

const repo = fileURLToPath(new URL('..', import.meta.url))
const jupyterLab = join(repo, '.venv/bin/jupyter-lab')
const scenario = join(repo, 'scenarios/two-source-wan.json')
const artifacts = fileURLToPath(new URL('./artifacts/', import.meta.url))

/** A port nothing listens on now, from the system. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}

function cell(source: string) {
  return { cell_type: 'code', execution_count: null, metadata: {}, outputs: [], source }
}

function notebook(): string {
  const path = JSON.stringify(scenario)
  return JSON.stringify({
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {
      kernelspec: { name: 'python3', display_name: 'Python 3 (ipykernel)', language: 'python' },
      language_info: { name: 'python' },
    },
    cells: [
      // 5 simulated ms a second: the scenario's first narrated stop (20 ms), where the run waits,
      // is 4 s away, long enough to see the curve move on a busy machine.
      cell(`import abrlab\nlab = abrlab.Lab(${path}, speed=5, height=480)\nlab`),
      cell('lab.set("vcs.*.rif", "1/2")'),
      cell(
        `df = lab.samples()\nsame = list(df.columns) == list(abrlab.run(${path}, until_ms=1).samples.columns)\nprint("samples", df.shape, same, lab.scenario["vcs"][0]["rif"])`,
      ),
    ],
  })
}

let server: ChildProcess | null = null
let root = ''
let url = ''

test.beforeAll(async () => {
  test.setTimeout(90_000)
  if (!existsSync(jupyterLab))
    throw new Error(`${jupyterLab} is missing: run bash scripts/python-env.sh (npm test does)`)
  root = mkdtempSync(join(tmpdir(), 'abrlab-jupyter-'))
  const config = join(root, '.config')
  mkdirSync(config)
  mkdirSync(join(root, 'work'))
  // No news, no update check: JupyterLab asks nothing of the network.
  writeFileSync(
    join(config, 'jupyter_server_config.json'),
    JSON.stringify({
      LabApp: { news_url: null, check_for_updates_class: 'jupyterlab.NeverCheckForUpdate' },
    }),
  )
  writeFileSync(join(root, 'work', 'lab.ipynb'), notebook())
  const port = await freePort()
  url = `http://127.0.0.1:${port}`
  server = spawn(
    jupyterLab,
    [
      '--no-browser',
      `--port=${port}`,
      '--ServerApp.port_retries=0',
      '--ServerApp.ip=127.0.0.1',
      // CI runs as root.
      '--allow-root',
      '--IdentityProvider.token=',
      `--ServerApp.root_dir=${join(root, 'work')}`,
    ],
    {
      cwd: join(root, 'work'),
      env: {
        ...process.env,
        JUPYTER_CONFIG_DIR: config,
        JUPYTER_RUNTIME_DIR: join(root, '.runtime'),
        JUPYTERLAB_SETTINGS_DIR: join(root, '.settings'),
        JUPYTERLAB_WORKSPACES_DIR: join(root, '.workspaces'),
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  )
  let log = ''
  server.stderr?.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-4000)
  })
  const started = Date.now()
  for (;;) {
    if (server.exitCode !== null) throw new Error(`JupyterLab exited:\n${log}`)
    const ok = await fetch(`${url}/api/status`).then(
      (r) => r.ok,
      () => false,
    )
    if (ok) break
    if (Date.now() - started > 60_000) throw new Error(`JupyterLab did not answer in 60 s:\n${log}`)
    await new Promise((r) => setTimeout(r, 250))
  }
})

test.afterAll(async () => {
  const running = server
  server = null
  if (running && running.exitCode === null) {
    // Jupyter shuts its kernels down on SIGTERM; SIGKILL if it has not within 10 s.
    const exited = new Promise((r) => running.once('exit', r))
    running.kill('SIGTERM')
    const late = setTimeout(() => running.kill('SIGKILL'), 10_000)
    await exited
    clearTimeout(late)
  }
  if (root) rmSync(root, { recursive: true, force: true })
})

/** Runs the notebook's cell `index` (Shift+Enter in it) and waits until the kernel is done. */
async function runCell(page: Page, index: number): Promise<void> {
  const cells = page.locator('.jp-Notebook .jp-CodeCell')
  await cells.nth(index).locator('.jp-InputArea-editor').click()
  await page.keyboard.press('Shift+Enter')
  await expect(cells.nth(index).locator('.jp-InputPrompt')).toHaveText(/\[\d+\]/, {
    timeout: 30_000,
  })
}

test('JupyterLab: the widget runs the engine in the notebook, lab.set changes the run', async ({
  page,
}) => {
  test.setTimeout(90_000)
  await page.goto(`${url}/lab/tree/lab.ipynb`)
  await expect(page.locator('.jp-Notebook .jp-CodeCell')).toHaveCount(3, { timeout: 45_000 })
  await expect(page.locator('#jp-main-statusbar')).toContainText('Idle', { timeout: 45_000 })

  await runCell(page, 0)
  const output = page.locator('.jp-Notebook .jp-CodeCell').nth(0).locator('.jp-OutputArea')
  // The network, drawn in the widget (open shadow roots are searched by the locators).
  await expect(output.locator('svg.topology').first()).toBeVisible({ timeout: 30_000 })
  await expect(output.locator('h1')).toContainText('Two-source WAN transient')
  // The ACR curve moves: its path grows as the samples come in.
  const acr = output.locator('svg#acr-chart path[data-series="vc.vc1.acr"]')
  await expect(acr).toHaveCount(1, { timeout: 30_000 })
  const before = (await acr.getAttribute('d')) ?? ''
  await expect
    .poll(async () => ((await acr.getAttribute('d')) ?? '').length, { timeout: 20_000 })
    .toBeGreaterThan(before.length + 20)
  mkdirSync(artifacts, { recursive: true })
  await output.screenshot({ path: join(artifacts, 'jupyter-widget-cell.png') })

  // The scenario's first narrated stop (20 ms): the run waits there, its text shown.
  await expect(output.getByTestId('stop-note')).toContainText('S1 alone', { timeout: 30_000 })

  await runCell(page, 1)
  await expect(output.getByTestId('announcement')).toContainText(
    /Set vcs\.\*\.rif = 1\/2: applied live at t = 20\.0 ms/,
    { timeout: 20_000 },
  )
  // Play on from the stop: the run goes on with the new RIF.
  await output.locator('button.action-togglePlay').click()
  await expect(output.getByTestId('sim-time')).toContainText(/t = (2[5-9]|[3-9]\d|\d{3})\./, {
    timeout: 20_000,
  })

  await runCell(page, 2)
  const printed = page.locator('.jp-Notebook .jp-CodeCell').nth(2).locator('.jp-OutputArea')
  await expect(printed).toContainText(/samples \(\d+, \d+\) True 0\.5/)
  const [, rows] = /samples \((\d+),/.exec((await printed.textContent()) ?? '') ?? []
  expect(Number(rows)).toBeGreaterThan(10)

  // A key pressed in the lab acts on the lab (R: reset), never on the notebook (R: a raw cell,
  // M: a Markdown cell).
  const codeCells = await page.locator('.jp-Notebook .jp-CodeCell').count()
  // The notebook in command mode, where R is its shortcut; then the lab's Step button focused.
  await page.keyboard.press('Escape')
  await expect(page.locator('.jp-Notebook.jp-mod-commandMode')).toHaveCount(1)
  await output.locator('button.action-step').focus()
  await page.keyboard.press('r')
  await expect(output.getByTestId('announcement')).toContainText('Restart: restarted')
  await expect(page.locator('.jp-Notebook .jp-CodeCell')).toHaveCount(codeCells)
  await page.keyboard.press('m')
  await expect(page.locator('.jp-Notebook .jp-CodeCell')).toHaveCount(codeCells)
  await expect(page.locator('.jp-Notebook .jp-RawCell, .jp-Notebook .jp-MarkdownCell')).toHaveCount(
    0,
  )
  await page.screenshot({ path: join(artifacts, 'jupyter-widget.png') })
})
