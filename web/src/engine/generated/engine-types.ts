// Generated from the engine's Rust types by ts-rs (engine-wasm/crates/sim-core/src/ts_types.rs).
// Do not edit: UPDATE_TS_TYPES=1 cargo test --release -p sim-core --lib ts_types

export type Scope = "vc" | "traffic" | "background" | "port" | "erica" | "efci" | "explicit_maxmin" | "link" | "run" | "ip_flow" | "tcp" | "ip_port" | "bat" | "clcc";

export type Kind = "real" | "integer" | "pow2" | "zero_or_pow2" | "bool";

export type ParamSpec = { key: string, scope: Scope, label: string, unit: string, 
/**
 * Null when the default is derived (ICR defaults to PCR) or means "absent" (no stop time).
 */
default: number | null, min: number, max: number, kind: Kind, 
/**
 * Whether a change can be applied to a running simulation.
 */
live: boolean, doc: string, };

export type ScenarioError = { path: string, message: string, };

export type SweepSummary = { max_queue: number, utilization: number, 
/**
 * None when the model samples no fairness column.
 */
fairness: number | null, 
/**
 * Cells (packets in the packet model) lost at every port.
 */
cells_lost: number, };

export type ModelName = "cell" | "ip";

export type NodeKind = "host" | "switch" | "router";

export type VariantInfo = { id: string, label: string, };

export type StopView = { 
/**
 * A node, link, VC, flow or background source id.
 */
selection: string | null, 
/**
 * One of [`CHARTS`].
 */
chart: string | null, 
/**
 * A port: `<link id>` (a→b) or `<link id>:rev`.
 */
magnify: string | null, };

export type Stop = { 
/**
 * Optional name a question's `before` refers to.
 */
id: string | null, t_ms: number, title: string, text: string, view: StopView | null, };

export type Choice = { text: string, 
/**
 * `[low, high]`: the values of the metric this choice stands for.
 */
range: [number, number], };

export type Answer = { 
/**
 * The number (absent for a choice).
 */
value: number | null, low: number | null, high: number | null, unit: string, choices: Array<Choice>, 
/**
 * Index of the paper's choice.
 */
correct: number | null, };

export type Question = { id: string, prompt: string, metric: string, 
/**
 * `[from_ms, to_ms]` each.
 */
windows: Array<[number, number]>, answer: Answer, explanation: string, 
/**
 * The stop the question is asked at (its id), if not at the window's start.
 */
before: string | null, 
/**
 * When the run stops for the student's answer: the `before` stop's time, else where the
 * windows the metric reads begin.
 */
ask_ms: number, 
/**
 * When every window the metric reads has passed (the run's end for `totals`).
 */
due_ms: number, };

export type ScenarioInfo = { id: string, title: string, paper: string, explanation: string, things_to_try: Array<string>, 
/**
 * Named sets of overrides the scenario file offers (e.g. "Nrm = 8").
 */
variants: Array<VariantInfo>, 
/**
 * Narrated stops on the timeline.
 */
stops: Array<Stop>, 
/**
 * Predict-then-play questions, each answered by a figure of the run.
 */
questions: Array<Question>, };

export type LayoutNode = { id: string, kind: NodeKind, x: number, y: number, };

export type LayoutLink = { id: string, a: string, b: string, rate_mbps: number, delay_ms: number, };

export type LayoutVc = { id: string, 
/**
 * For the reverse loop of a bidirectional VC (`<id>:rev`), the forward VC's id.
 */
reverse_of?: string | null, source: string, destination: string, path: Array<string>, 
/**
 * PCR after negotiation down to the slowest link, Mbit/s.
 */
pcr_mbps: number, 
/**
 * The start-up option (Ma & Ramakrishnan §3): `atm_forum`, `rate` or `rm`.
 */
startup: string, };

export type LayoutBackground = { id: string, kind: string, rate_mbps: number, path: Array<string>, };

export type LayoutPort = { id: string, link: string, from: string, to: string, from_kind: NodeKind, 
/**
 * Cell model: the port's switch algorithm ("none" when it only queues).
 */
algorithm?: string, buffer_cells?: number, 
/**
 * Packet model: the port's AQM (`drop_tail`, `bat`, `bat+clcc`).
 */
aqm?: string, buffer_pkts?: number, };

export type LayoutFlow = { id: string, 
/**
 * The group it is counted in at the AQM (a TCP bundle of `count` connections, or the flow).
 */
group: string, kind: string, source: string, destination: string, path: Array<string>, rtt_ms: number, packet_bytes: number, start_ms: number, };

export type Layout = { 
/**
 * Which model runs: ABR cells (absent) or IP packets (Pletka et al.).
 */
model?: ModelName, scenario: ScenarioInfo, until_ms: number, seed: number, sample_interval_ms: number, nodes: Array<LayoutNode>, links: Array<LayoutLink>, 
/**
 * The cell model's VCs (the packet model's list is empty).
 */
vcs: Array<LayoutVc>, 
/**
 * Background sources (the packet model has none).
 */
background: Array<LayoutBackground>, ports: Array<LayoutPort>, 
/**
 * Packet model: the flows.
 */
flows?: Array<LayoutFlow>, 
/**
 * Packet model: the port with the BAT AQM, if any.
 */
bat_port?: string | null, 
/**
 * Packet model: the traffic classes (`tcp`, `udp`).
 */
classes?: Array<string>, 
/**
 * Names of the sample columns, in row order (`t_ms`, `vc.<id>.acr`, `port.<id>.queue`, ...).
 */
columns: Array<string>, 
/**
 * Packet model: names of the live frame's entries, in order.
 */
frame_columns?: Array<string>, 
/**
 * Legal but suspicious settings, each with a suggested fix.
 */
warnings: Array<ScenarioError>, };
