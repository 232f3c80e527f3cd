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
