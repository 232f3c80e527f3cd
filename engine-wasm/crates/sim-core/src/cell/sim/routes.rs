//! The loops' routes packed together for the per-cell path (issue 18). A
//! cell crossing a switch needs only its loop's route, and a [`Vc`] is
//! several hundred bytes with its route in a heap block of its own: with
//! hundreds of loops, reading the route there missed the cache twice at
//! every hop. Here every route is in one small array, a few bytes per hop.

use super::Vc;

/// Where one loop's ports are in [`Routes::ports`].
#[derive(Clone, Copy, Debug)]
struct Span {
    /// Start of the forward ports; the reverse ports follow them.
    start: u32,
    hops: u32,
}

/// Every loop's forward ports (source first) and reverse ports (destination
/// first), as [`Vc::fwd_ports`] and [`Vc::rev_ports`] have them.
#[derive(Clone, Debug, Default)]
pub struct Routes {
    ports: Vec<u32>,
    spans: Vec<Span>,
}

impl Routes {
    pub fn new(vcs: &[Vc]) -> Routes {
        let mut r = Routes::default();
        for v in vcs {
            debug_assert_eq!(v.fwd_ports.len(), v.rev_ports.len());
            let start = r.ports.len() as u32;
            r.ports.extend_from_slice(&v.fwd_ports);
            r.ports.extend_from_slice(&v.rev_ports);
            r.spans.push(Span { start, hops: v.fwd_ports.len() as u32 });
        }
        r
    }

    /// The ports `vc`'s forward cells leave by, source first.
    #[inline]
    pub fn fwd(&self, vc: usize) -> &[u32] {
        let s = self.spans[vc];
        &self.ports[s.start as usize..(s.start + s.hops) as usize]
    }

    /// The ports `vc`'s backward RM cells leave by, destination first.
    #[inline]
    pub fn rev(&self, vc: usize) -> &[u32] {
        let s = self.spans[vc];
        &self.ports[(s.start + s.hops) as usize..(s.start + 2 * s.hops) as usize]
    }
}
