//! ABR Lab's simulation engine: a deterministic discrete-event model of ATM ABR
//! networks at the cell level and, beside it, of IP routers with
//! rate-based AQM at the packet level (`ip`). Pure Rust — no wasm or JS types —
//! so the same engine serves the browser (through `sim-wasm`), the tests and
//! the native `abrsim` runner.

pub mod cell;
pub mod claims;
#[cfg(test)]
mod format_doc;
pub mod ip;
pub mod kernel;
pub mod model;
pub mod probe;
pub mod runner;
pub mod scenario;
pub mod session;
pub mod sweep;
pub mod time;
#[cfg(test)]
mod ts_types;

pub use cell::Simulation;
pub use kernel::RunOutcome;
pub use model::Model;
pub use session::Applied;
