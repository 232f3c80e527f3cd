//! The ATM cell model (`"model": "cell"`): the cell and its RM fields
//! (`atm`), ports and links (`net`), the ABR end systems (`endsystem`), the switch algorithms
//! (`switch_alg`), its events, and the simulation that ties them together.
//! It is a peer of the packet model in [`crate::ip`]; both run on the shared
//! [`crate::kernel`] and record through [`crate::probe`].

pub mod atm;
pub mod endsystem;
pub mod event;
pub mod net;
pub mod report;
pub mod scenario;
pub mod sim;
pub mod switch_alg;
#[cfg(test)]
mod tests;

pub use event::Event;
pub use sim::Simulation;
