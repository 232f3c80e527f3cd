/**
 * A term of the glossary where it appears: hovering it, focusing it (Tab) or tapping it (a phone)
 * shows its plain-words explanation and the paper it comes from; Escape or tapping again hides it.
 */
import { useId, useState, type ReactNode } from 'react'
import { lookup } from './terms'
import './glossary.css'

export function Term({ name, children }: { name: string; children?: ReactNode }) {
  const entry = lookup(name)
  const id = useId()
  const [open, setOpen] = useState(false)
  if (!entry) return <>{children ?? name}</>
  return (
    <span
      className="term"
      role="button"
      tabIndex={0}
      aria-describedby={open ? id : undefined}
      aria-expanded={open}
      data-term={entry.term}
      onMouseEnter={() => setOpen(true)}
      onMouseLeave={() => setOpen(false)}
      onFocus={() => setOpen(true)}
      onBlur={() => setOpen(false)}
      onClick={() => setOpen((o) => !o)}
      onKeyDown={(e) => {
        if (e.key === 'Escape') setOpen(false)
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault()
          setOpen((o) => !o)
        }
      }}
    >
      {children ?? name}
      {open && (
        <span className="term-tip" role="tooltip" id={id}>
          <strong>{entry.term}</strong>: {entry.words} <em>({entry.source})</em>
        </span>
      )}
    </span>
  )
}
