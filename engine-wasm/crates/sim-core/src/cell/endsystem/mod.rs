//! ABR end systems (ATM Forum TM 4.0 as explained in Fahmy et al.): the source
//! rules that use the negotiated parameters, and the destination that turns
//! forward RM cells around.

pub mod destination;
pub mod params;
pub mod source;
pub mod traffic;

pub use destination::Destination;
pub use params::AbrParams;
pub use source::AbrSource;
pub use traffic::Traffic;
