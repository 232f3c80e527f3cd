//! ABR Lab's simulation engine: a deterministic discrete-event model of ATM ABR
//! networks at the cell level (SPEC §3–5). Pure Rust — no wasm or JS types —
//! so the same engine serves the browser (through `sim-wasm`), the tests and
//! the native `abrsim` runner.

pub mod endsystem;
pub mod kernel;
pub mod net;
pub mod probe;
pub mod runner;
pub mod scenario;
pub mod sim;
pub mod switch_alg;
pub mod time;

pub use sim::{Applied, RunOutcome, Simulation};
