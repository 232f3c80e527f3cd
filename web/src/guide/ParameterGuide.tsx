/** The parameter guide (Fahmy et al.) for the current topology, with a warning for each broken guideline. */
import { useEffect, useMemo, useState } from 'react'
import './guide.css'
import type { Layout } from '../engine/layout'
import { loadRegistry, type ParamSpec } from '../sweep/targets'
import { formatDuration, parameterGuide, type VcGuide } from './guide'

interface ParameterGuideProps {
  layout: Layout
  scenarioJson: string
}

const VERDICT_TEXT = {
  ok: 'follows the guideline',
  warn: 'breaks the guideline',
  info: 'for reference',
} as const

function GuideGroup({ guide }: { guide: VcGuide }) {
  const names =
    guide.vcs.length > 6
      ? `${guide.vcs.slice(0, 6).join(', ')} and ${guide.vcs.length - 6} more`
      : guide.vcs.join(', ')
  const warnings = guide.checks.filter((c) => c.verdict === 'warn').length
  return (
    <section
      className="guide-group"
      aria-label={`Guide for ${names}`}
      data-vcs={guide.vcs.join(' ')}
    >
      <h3>
        {names}
        <span className="muted">
          {' '}
          · PCR {Number(guide.params.pcrMbps.toPrecision(5))} Mbit/s ={' '}
          {Math.round(guide.pcrCellsPerS).toLocaleString('en')} cells/s · FRTT{' '}
          {formatDuration(guide.frttMs)}
        </span>
        {warnings > 0 && (
          <span className="guide-badge warn">
            {warnings === 1 ? '1 warning' : `${warnings} warnings`}
          </span>
        )}
      </h3>
      <table className="guide-checks">
        <thead>
          <tr>
            <th scope="col">Guideline</th>
            <th scope="col">For this path</th>
            <th scope="col">This scenario</th>
          </tr>
        </thead>
        <tbody>
          {guide.checks.map((check) => (
            <tr
              key={check.id}
              className={`verdict-${check.verdict}`}
              data-check={check.id}
              data-verdict={check.verdict}
            >
              <th scope="row">
                {check.title}
                <div className="formula">{check.formula}</div>
              </th>
              <td>{check.guideline}</td>
              <td>
                <span
                  className="verdict-mark"
                  role="img"
                  aria-label={VERDICT_TEXT[check.verdict]}
                  title={VERDICT_TEXT[check.verdict]}
                >
                  {check.verdict === 'ok' ? '✓' : check.verdict === 'warn' ? '⚠' : 'ℹ'}
                </span>{' '}
                {check.current}
                <div className="guide-note">{check.note}</div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <table className="guide-interrm">
        <caption>Time between forward RM cells at PCR, for each Nrm (Fahmy et al. Table 2)</caption>
        <thead>
          <tr>
            <th scope="row">Nrm</th>
            {guide.interRm.map((r) => (
              <th key={r.nrm} scope="col" className={r.current ? 'current' : undefined}>
                {r.nrm}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">Nrm/PCR</th>
            {guide.interRm.map((r) => (
              <td
                key={r.nrm}
                className={r.current ? 'current' : undefined}
                aria-current={r.current ? 'true' : undefined}
              >
                {formatDuration(r.ms)}
              </td>
            ))}
          </tr>
        </tbody>
      </table>
    </section>
  )
}

export function ParameterGuide({ layout, scenarioJson }: ParameterGuideProps) {
  const [registry, setRegistry] = useState<ParamSpec[] | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  useEffect(() => {
    loadRegistry().then(setRegistry, (cause: unknown) =>
      setProblem(cause instanceof Error ? cause.message : String(cause)),
    )
  }, [])
  const guides = useMemo(() => {
    if (!registry) return null
    try {
      return parameterGuide(scenarioJson, layout, registry)
    } catch (cause) {
      setProblem(cause instanceof Error ? cause.message : String(cause))
      return null
    }
  }, [registry, scenarioJson, layout])

  return (
    <section className="parameter-guide" aria-labelledby="guide-title">
      <h2 id="guide-title">Parameter guide</h2>
      <p className="muted">
        Fahmy, Jain, Goyal &amp; Vandalore, “ABR Engineering: Roles and Guidelines for Setting ABR
        Parameters”, give rules of thumb for ABR parameters from the link speeds and round-trip
        time. Here they are for this topology, against what the scenario sets; FRTT is twice the
        propagation delay along each VC’s path.
      </p>
      {problem && <p className="sweep-problem">The guide could not be computed: {problem}</p>}
      {guides?.length === 0 && (
        <p className="guide-none">
          This scenario has no ABR virtual circuits (it runs at packet level, or has no VC yet), so
          none of Fahmy et al.’s ABR guidelines applies.
        </p>
      )}
      {guides?.map((g) => (
        <GuideGroup key={g.vcs.join(',')} guide={g} />
      ))}
    </section>
  )
}
