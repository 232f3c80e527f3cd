/** The form's fieldset for one axis of a sweep: the parameter (or a path), its values, its range. */
import { formatParamValue } from './paths'
import { type AxisInput, NONE } from './sweepPlan'
import type { SweepTarget } from './targets'

/** The fieldset of axis `i` (0 across, 1 down; only the second may be “nothing”). */
export function AxisControls({
  i,
  axis,
  targets,
  onChoose,
  onEdit,
}: {
  i: 0 | 1
  axis: AxisInput
  targets: readonly SweepTarget[]
  /** A parameter chosen from the list: its values start from a suggestion. */
  onChoose(path: string): void
  /** The path or the values typed. */
  onEdit(next: Partial<AxisInput>): void
}) {
  const spec = targets.find((t) => t.path === axis.path)?.spec
  const isCustom = axis.path !== NONE && !spec
  return (
    <fieldset className="sweep-axis">
      <legend>{i === 0 ? 'First parameter (across)' : 'Second parameter (down)'}</legend>
      <label>
        Parameter
        <select
          value={isCustom ? '__custom' : axis.path}
          onChange={(e) => onChoose(e.target.value === '__custom' ? 'vcs.*.' : e.target.value)}
          aria-label={`${i === 0 ? 'First' : 'Second'} parameter`}
        >
          {i === 1 && <option value={NONE}>nothing (one-parameter sweep)</option>}
          {targets.map((t) => (
            <option key={t.path} value={t.path}>
              {t.label}
            </option>
          ))}
          <option value="__custom">another path…</option>
        </select>
      </label>
      {isCustom && (
        <label>
          Path
          <input
            value={axis.path}
            onChange={(e) => onEdit({ path: e.target.value })}
            aria-label={`${i === 0 ? 'First' : 'Second'} parameter path`}
          />
        </label>
      )}
      {axis.path !== NONE && (
        <label>
          Values{spec?.unit ? ` (${spec.unit})` : ''}
          <input
            value={axis.values}
            onChange={(e) => onEdit({ values: e.target.value })}
            aria-label={`${i === 0 ? 'First' : 'Second'} parameter values`}
            placeholder="e.g. 1/64, 1/16, 1/4, 1"
          />
        </label>
      )}
      {spec && (
        <p className="muted sweep-doc">
          {spec.doc} Range {formatParamValue(spec.min)}–{formatParamValue(spec.max)}
          {spec.kind === 'pow2'
            ? ', powers of two'
            : spec.kind === 'zero_or_pow2'
              ? ', 0 or powers of two'
              : ''}
          .
        </p>
      )}
    </fieldset>
  )
}
