/** The Glossary tab: every acronym and symbol the page shows, in plain words, with its source. */
import { GLOSSARY } from './terms'
import './glossary.css'

/** The Glossary tab's panel (`view-glossary` names it); its entries are built when first shown. */
export function GlossaryPanel({ shown }: { shown: boolean }) {
  return (
    <div
      className="view-panel"
      role="tabpanel"
      id="view-panel-glossary"
      aria-labelledby="view-glossary"
      hidden={!shown}
    >
      {shown && <Entries />}
    </div>
  )
}

function Entries() {
  const entries = [...GLOSSARY].sort((a, b) => a.term.localeCompare(b.term, 'en'))
  return (
    <div className="glossary" data-testid="glossary">
      <p>
        Every acronym and symbol on the page, in a sentence or two, with the paper and section it
        comes from. Hover, focus or tap an underlined term anywhere on the page to read it there.
      </p>
      <dl>
        {entries.map((e) => (
          <div
            key={e.term}
            className="glossary-entry"
            data-testid="glossary-entry"
            data-term={e.term}
          >
            <dt>
              {e.term}
              {e.aliases && e.aliases.length > 0 && (
                <span className="glossary-aliases"> (also {e.aliases.join(', ')})</span>
              )}
            </dt>
            <dd>
              {e.words} <cite>{e.source}</cite>
            </dd>
          </div>
        ))}
      </dl>
    </div>
  )
}
