//! The cell model's events: what the kernel's queue carries for a
//! [`Simulation`](super::sim::Simulation).

/// What can happen in a simulation. Small and `Copy`: cells live in port and
/// link buffers, never in the heap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// An ABR source reaches a transmission opportunity (Fahmy et al. §1, rule 3).
    /// `generation` invalidates superseded schedules (rescheduling, Fahmy et al. §5.1).
    SourceSend { vc: u32, generation: u32 },
    /// The next cell of a loop whose source is its host port's only sender
    /// reaches the switch at that link's far end (or, while the link is
    /// empty, the earliest the source's next cell can). Such a source has no
    /// `SourceSend` events: it sends the cells whose time came when this
    /// arrives or anything else reads or changes it
    /// (`Simulation::catch_up_source`). When every link into a last trunk
    /// is such a link, only the sources' RM cells arrive by this event: their
    /// data cells land in the trunk without one (`sim/sources.rs`).
    /// `generation` as for `SourceSend`.
    HostArrive { vc: u32, generation: u32 },
    /// A source's traffic model turns on or off (start/stop times).
    TrafficChange { vc: u32 },
    /// A port finishes putting its current cell on the wire while cells
    /// wait: only a port whose link ends at a host has these; the others
    /// start their waiting cells without events (`Port::catch_up`), a last
    /// trunk's under a guard event of this kind (`Starts::Guarded`).
    PortTxDone { port: u32 },
    /// The next cell on a port's link whose arrival is an event reaches the
    /// far end (every cell's, except on a lazy link: `Wire::lazy`).
    LinkArrive { port: u32 },
    /// A background (CBR/VBR) source emits a cell.
    BackgroundSend { source: u32 },
    /// A background source's square wave changes phase (or it starts/stops).
    BackgroundEdge { source: u32 },
    /// A switch algorithm's periodic work (e.g. the end of ERICA's averaging interval).
    AlgorithmTick { port: u32 },
    /// A loop's connection set-up or connect message ends its processing at
    /// a node or its crossing of a link (Ma & Ramakrishnan §3).
    Signal { vc: u32 },
    /// The probe records a sample row.
    Sample,
}
