/**
 * Share: a link that reproduces the scenario as edited (and the view), and the iframe snippet that
 * embeds it in a course page. Both are shown as text to select, with a copy button.
 */
import './embed.css'
import { useEffect, useRef, useState } from 'react'
import { embedSnippet, embedUrl } from './embed'

interface ShareDialogProps {
  open: boolean
  title: string
  /** Builds the share link's hash for the scenario as it is now. */
  makeHash(): Promise<string>
  onClose(): void
}

function pageBase(): string {
  return `${window.location.origin}${window.location.pathname}`
}

function CopyField({ label, value, testId }: { label: string; value: string; testId: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'manual'>('idle')
  const fieldRef = useRef<HTMLTextAreaElement>(null)
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new value resets the copy state
  useEffect(() => setState('idle'), [value])
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value)
      setState('copied')
    } catch {
      // No clipboard permission (an embedded page, an old browser): select the text for Ctrl+C.
      fieldRef.current?.select()
      setState('manual')
    }
  }
  return (
    <div className="copy-field">
      <label>
        {label}
        <textarea
          ref={fieldRef}
          readOnly
          value={value}
          rows={3}
          data-testid={testId}
          onFocus={(e) => e.currentTarget.select()}
        />
      </label>
      <button type="button" onClick={copy}>
        {label.startsWith('Embed') ? 'Copy embed snippet' : 'Copy link'}
      </button>
      <span className="muted" role="status">
        {state === 'copied'
          ? 'Copied.'
          : state === 'manual'
            ? 'Selected: press Ctrl+C (⌘C) to copy.'
            : ''}
      </span>
    </div>
  )
}

export function ShareDialog({ open, title, makeHash, onClose }: ShareDialogProps) {
  const dialogRef = useRef<HTMLDialogElement>(null)
  const [hash, setHash] = useState<string | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const [autoplay, setAutoplay] = useState(true)

  useEffect(() => {
    const dialog = dialogRef.current
    if (!dialog) return
    if (open && !dialog.open) dialog.showModal()
    if (!open && dialog.open) dialog.close()
  }, [open])

  useEffect(() => {
    if (!open) return
    let cancelled = false
    setHash(null)
    makeHash().then(
      (h) => !cancelled && setHash(h),
      (error: unknown) =>
        !cancelled && setFailure(error instanceof Error ? error.message : String(error)),
    )
    return () => {
      cancelled = true
    }
  }, [open, makeHash])

  const link = hash ? `${pageBase()}${hash}` : ''
  const snippet = hash ? embedSnippet(embedUrl(pageBase(), hash, autoplay), title) : ''
  return (
    <dialog
      ref={dialogRef}
      className="share-dialog"
      aria-labelledby="share-title"
      onClose={onClose}
    >
      <header className="dialog-header">
        <h2 id="share-title">Share this run</h2>
        <button type="button" className="plain" onClick={onClose} aria-label="Close sharing">
          Close
        </button>
      </header>
      <p className="muted">
        The link holds the whole scenario as edited, its parameters and the view, compressed (
        {link.length.toLocaleString('en')} characters). Opening it builds the same scenario with the
        same seed, so the run is identical, from 0 ms.
      </p>
      {failure && <p role="alert">The link could not be made: {failure}</p>}
      {hash ? (
        <>
          <CopyField label="Link" value={link} testId="share-link" />
          <label className="inline">
            <input
              type="checkbox"
              checked={autoplay}
              onChange={(e) => setAutoplay(e.target.checked)}
            />{' '}
            the embedded run starts by itself (autoplay)
          </label>
          <CopyField label="Embed snippet (HTML)" value={snippet} testId="embed-snippet" />
        </>
      ) : (
        !failure && <p className="muted">Making the link…</p>
      )}
    </dialog>
  )
}
