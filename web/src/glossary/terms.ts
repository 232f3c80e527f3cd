/**
 * The glossary: every acronym and symbol the page shows, in one or two sentences a first-year
 * student understands, with the paper (and section) it comes from. The Glossary tab lists them;
 * `<Term>` explains one where it appears.
 */

export interface GlossaryEntry {
  /** As the page writes it: "ACR", "Nrm", "fair share". */
  term: string
  /** Other spellings the page uses for the same thing. */
  aliases?: readonly string[]
  /** Plain words. */
  words: string
  /** Where it comes from: authors, title, section. */
  source: string
}

const FAHMY =
  'Fahmy, Jain, Goyal & Vandalore, “ABR Engineering: Roles and Guidelines for Setting ABR Parameters”'
const JAIN =
  'Jain, Fahmy, Kalyanaraman & Goyal, “Switch Algorithm Testing: A Case Study with ERICA”'
const MA = 'Ma & Ramakrishnan, “Queue Management for Explicit Rate Based Congestion Control”'
const OHSAKI =
  'Ohsaki, Murata & Miyahara, “Performance of Rate-Based Congestion Control Algorithm with Binary-Mode Switch in ATM Networks”'
const PLETKA =
  'Pletka, Kind, Waldvogel & Mannel, “AQM for Fair Bandwidth Allocation of Mixed Responsive and Non-Responsive Traffic Using a Closed-Loop Congestion Control Scheme”'

export const GLOSSARY: readonly GlossaryEntry[] = [
  {
    term: 'ATM',
    words:
      'Asynchronous Transfer Mode: a network that carries everything in small fixed cells of 53 bytes (48 of them data) along virtual circuits set up in advance.',
    source: `${FAHMY}, §1`,
  },
  {
    term: 'ABR',
    words:
      'Available Bit Rate: the ATM service in which a source is told, again and again, how fast it may send, so that it uses whatever capacity the other traffic leaves free.',
    source: `${FAHMY}, §1–2`,
  },
  {
    term: 'CBR',
    words:
      'Constant Bit Rate: traffic that always sends at the same rate and gets no feedback; switches serve it before ABR.',
    source: `${MA}, §3.3`,
  },
  {
    term: 'VBR',
    words:
      'Variable Bit Rate: traffic (video, say) whose rate changes on its own; here a square wave, on then off. It is served before ABR, so ABR must fill the gaps it leaves.',
    source: `${FAHMY}, §4.2.2`,
  },
  {
    term: 'VC',
    aliases: ['VCs'],
    words:
      'Virtual circuit: the fixed path one connection’s cells take from source to destination through the switches.',
    source: `${FAHMY}, §2`,
  },
  {
    term: 'ACR',
    words:
      'Allowed Cell Rate: how fast a source may send right now. Feedback from the network raises or lowers it.',
    source: `${FAHMY}, §2, Table 1`,
  },
  {
    term: 'PCR',
    words: 'Peak Cell Rate: the fastest a source may ever send; ACR never goes above it.',
    source: `${FAHMY}, §3.1`,
  },
  {
    term: 'MCR',
    words: 'Minimum Cell Rate: a rate the network guarantees; ACR never goes below it.',
    source: `${FAHMY}, §3.1`,
  },
  {
    term: 'ICR',
    words: 'Initial Cell Rate: the rate a source starts at, before any feedback has come back.',
    source: `${FAHMY}, §6.1.2`,
  },
  {
    term: 'TCR',
    words:
      'Tagged Cell Rate: the slow rate at which a source that may not send data still sends RM cells, so it can learn it may start again.',
    source: `${FAHMY}, §7`,
  },
  {
    term: 'RM',
    aliases: ['RM cell', 'RM cells'],
    words:
      'Resource Management cell: a control cell the source sends after every Nrm data cells; it goes to the destination and comes back carrying the network’s feedback.',
    source: `${FAHMY}, §2`,
  },
  {
    term: 'FRM',
    words:
      'Forward RM cell: an RM cell on its way from the source to the destination. Switches may read the source’s current rate from it.',
    source: `${FAHMY}, §2`,
  },
  {
    term: 'BRM',
    words:
      'Backward RM cell: the same RM cell turned around by the destination, carrying the explicit rate and congestion bits back to the source.',
    source: `${FAHMY}, §2`,
  },
  {
    term: 'ER',
    words:
      'Explicit Rate: the field of an RM cell in which a switch writes the rate it allows this VC; the source may not go above it.',
    source: `${FAHMY}, §2`,
  },
  {
    term: 'CI',
    words:
      'Congestion Indication: a bit in the backward RM cell. When set, the source cuts its rate by RDF.',
    source: `${FAHMY}, §2`,
  },
  {
    term: 'NI',
    words:
      'No Increase: a bit in the backward RM cell. When set, the source keeps its rate instead of raising it.',
    source: `${FAHMY}, §2`,
  },
  {
    term: 'EFCI',
    words:
      'Explicit Forward Congestion Indication: a bit a congested switch sets in data cells. The destination turns it into CI in the next backward RM cell — the “binary” feedback of older switches.',
    source: `${OHSAKI}, §II`,
  },
  {
    term: 'RIF',
    words:
      'Rate Increase Factor: when feedback allows, a source raises its rate by RIF × PCR per backward RM cell. Small RIF means a slow, careful climb.',
    source: `${FAHMY}, §5.1`,
  },
  {
    term: 'RDF',
    words:
      'Rate Decrease Factor: on congestion a source cuts its rate by RDF × its rate per backward RM cell.',
    source: `${OHSAKI}, §II; ${FAHMY}, §5.1`,
  },
  {
    term: 'Nrm',
    words:
      'How many data cells a source sends between two forward RM cells (32 by default): smaller means more frequent feedback and more overhead.',
    source: `${FAHMY}, §4.1`,
  },
  {
    term: 'Mrm',
    words:
      'The fewest data cells a source sends between RM cells when it sends RM cells on a timer.',
    source: `${FAHMY}, §4.1`,
  },
  {
    term: 'Trm',
    words:
      'The longest a source waits between forward RM cells (100 ms by default), so a slow source still hears from the network.',
    source: `${FAHMY}, §4.1`,
  },
  {
    term: 'ADTF',
    words:
      'ACR Decrease Time Factor: a source that has not sent for this long must fall back to ICR before sending again.',
    source: `${FAHMY}, §6.1.2`,
  },
  {
    term: 'TBE',
    words:
      'Transient Buffer Exposure: how many cells a source may send before the first RM cell comes back — a bound on what a new source can dump into the network.',
    source: `${FAHMY}, §6.1.1`,
  },
  {
    term: 'CRM',
    words:
      'Missing RM-cell count: after sending CRM forward RM cells with none coming back, a source starts cutting its rate (rule 6).',
    source: `${FAHMY}, §6.1.1`,
  },
  {
    term: 'CDF',
    words:
      'Cutoff Decrease Factor: how hard rule 6 cuts the rate when backward RM cells stop arriving (0 turns rule 6 off).',
    source: `${FAHMY}, §6.1.1`,
  },
  {
    term: 'FRTT',
    words:
      'Fixed Round-Trip Time: the propagation delay there and back, without queueing. ICR and CRM guidelines are written in terms of it.',
    source: `${FAHMY}, §6.2.1`,
  },
  {
    term: 'CCR',
    words:
      'Current Cell Rate: the source’s rate as it writes it in a forward RM cell, for switches to read.',
    source: `${FAHMY}, §2`,
  },
  {
    term: 'TM 4.0',
    aliases: ['TM'],
    words:
      'The ATM Forum’s Traffic Management Specification 4.0 (1996): the standard that defines ABR and its source rules.',
    source: `${FAHMY}, §1`,
  },
  {
    term: 'rule 6',
    words:
      'The source rule that cuts ACR by CDF when too many RM cells have gone out without any coming back — a guard against a broken feedback loop.',
    source: `${FAHMY}, §6.1.1`,
  },
  {
    term: 'ERICA',
    words:
      'Explicit Rate Indication for Congestion Avoidance: a switch measures its load and gives each VC the larger of its fair share and its current rate divided by the load.',
    source: `${JAIN}, ERICA slides`,
  },
  {
    term: 'ERICA+',
    words:
      'ERICA with queue control: it aims a little below the link’s capacity when a queue builds and above it when the queue is empty, keeping the queue near a target delay.',
    source: `${JAIN}, extension 12`,
  },
  {
    term: 'z',
    aliases: ['load factor'],
    words:
      'The load factor: the input rate a switch measures divided by the rate it aims for. Above 1 means overload.',
    source: `${JAIN}, ERICA slides`,
  },
  {
    term: 'fair share',
    words:
      'The capacity a switch aims for divided by the number of active VCs: what each would get if all wanted the same.',
    source: `${JAIN}, ERICA slides`,
  },
  {
    term: 'max-min',
    aliases: ['max-min fair'],
    words:
      'Max-min fairness: no VC can get more without taking from one that already has less. VCs held back elsewhere keep their rate; the rest share what is left equally.',
    source: `${MA}, §2.2`,
  },
  {
    term: 'set-point',
    aliases: ['S'],
    words:
      'The queue length a switch with queue management tries to hold; above it, the switch gives out less than the link’s rate so the queue drains.',
    source: `${MA}, §4.2`,
  },
  {
    term: 'BAT',
    words:
      'Bandwidth Allocation with Thresholds: a router queue rule that drops packets of each flow with a probability adjusted so that each flow gets between its minimum and maximum share.',
    source: `${PLETKA}, §III-A, equation 1`,
  },
  {
    term: 'CLCC',
    words:
      'Closed-Loop Congestion Control: a controller on top of BAT that measures the UDP-to-TCP ratio and keeps adjusting UDP’s drop constant until the ratio is the one asked for.',
    source: `${PLETKA}, §IV`,
  },
  {
    term: 'AQM',
    words:
      'Active Queue Management: a router deciding which packets to drop before its buffer is full, to share the link fairly.',
    source: `${PLETKA}, §I`,
  },
  {
    term: 'TCP',
    words:
      'The Internet’s reliable transport: it slows down when packets are lost (responsive traffic).',
    source: `${PLETKA}, §I`,
  },
  {
    term: 'UDP',
    words:
      'A transport that sends at whatever rate the application chooses and ignores losses (non-responsive traffic).',
    source: `${PLETKA}, §I`,
  },
  {
    term: 'D_UDP',
    words:
      'BAT’s decrease constant for the UDP class: how strongly the drop rate reacts when UDP goes over its share. CLCC tunes it.',
    source: `${PLETKA}, §III-D, §IV`,
  },
  {
    term: 'r_ref',
    words: 'The UDP-to-TCP throughput ratio CLCC is asked to reach.',
    source: `${PLETKA}, §IV, equation 5`,
  },
  {
    term: 'f_min',
    words: 'A flow’s minimum guaranteed share in BAT.',
    source: `${PLETKA}, §III-A`,
  },
  {
    term: 'RTT',
    words: 'Round-trip time: how long a packet and its answer take there and back.',
    source: `${PLETKA}, §III-C`,
  },
  {
    term: 'FIFO',
    words:
      'First in, first out: one queue per port, cells served in arrival order whatever their VC.',
    source: `${MA}, §3`,
  },
  {
    term: 'LAN',
    words:
      'Local area network: short links (here about a kilometre), so feedback returns within microseconds.',
    source: `${OHSAKI}, §III-A`,
  },
  {
    term: 'WAN',
    words:
      'Wide area network: long links (here 1000 km, 5 ms each way), so feedback takes milliseconds to come back.',
    source: `${FAHMY}, §4.2.1`,
  },
  {
    term: 'Jain index',
    aliases: ['fairness'],
    words:
      'Jain’s fairness index: 1 when every VC gets its max-min share, lower the more unequal the shares are.',
    source: `${JAIN}, fairness test`,
  },
  {
    term: 'YATS',
    words:
      'Another cell-level ATM simulator, written independently at TU Dresden. Its run of the default scenario is a second opinion: this lab’s tests compare their queue and rates with it.',
    source: 'The YATS simulator’s TM 4.0 source and ERICA switch port, compared in ABR Lab’s tests',
  },
]

/** Finds an entry by its term or an alias (case-sensitive first, then not). */
export function lookup(word: string): GlossaryEntry | undefined {
  const exact = GLOSSARY.find((e) => e.term === word || e.aliases?.includes(word))
  if (exact) return exact
  const lower = word.toLowerCase()
  return GLOSSARY.find(
    (e) => e.term.toLowerCase() === lower || e.aliases?.some((a) => a.toLowerCase() === lower),
  )
}
