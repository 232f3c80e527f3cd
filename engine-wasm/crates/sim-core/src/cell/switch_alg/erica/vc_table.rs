//! ERICA's per-VC table at one port. It is indexed directly by the VC's
//! index in the network: a table sized by the port's members needs a map
//! from one index to the other, and that extra dependent load per cell cost
//! as much as the smaller table saved (issue 18, measured at 2 to 200
//! sources). The interval's end visits only the members.

/// What ERICA remembers about one VC at one port.
#[derive(Clone, Copy, Debug)]
pub(super) struct VcState {
    /// Interval number in which forward cells of the VC last arrived.
    pub seen_forward: u32,
    /// Interval number in which the VC's BRM last passed (extension 7).
    pub seen_backward: u32,
    /// The VC's weight in the active count, in [0, 1] (1 or 0 without extension 9).
    pub activity: f64,
    /// Forward cells counted in this interval (extension 4).
    pub cells: u32,
    /// The rate measured over the last interval (extension 4).
    pub measured_rate: f64,
    /// CCR from the VC's latest forward RM cell (extension 1); NaN before any.
    pub latest_ccr: f64,
    /// Sum and count of the CCRs of the VC's forward RM cells in this interval.
    pub ccr_sum: f64,
    pub ccr_count: u32,
    /// The CCR the VC declared over the last complete interval, the one the
    /// overload z was measured on (extension 1); NaN before any.
    pub forward_ccr: f64,
    /// Interval number of the ER stored in `er` (extension 2).
    pub er_interval: u32,
    pub er: f64,
}

impl VcState {
    pub const NEW: VcState = VcState {
        seen_forward: 0,
        seen_backward: 0,
        activity: 0.0,
        cells: 0,
        measured_rate: 0.0,
        latest_ccr: f64::NAN,
        ccr_sum: 0.0,
        ccr_count: 0,
        forward_ccr: f64::NAN,
        er_interval: 0,
        er: 0.0,
    };
}

/// The per-VC states at one port, indexed by the VC's index in the network,
/// with the port's members: the VCs whose forward cells can pass it.
#[derive(Clone, Debug)]
pub(super) struct VcTable {
    states: Vec<VcState>,
    /// The members, ascending: the only entries the interval's end visits.
    members: Vec<u32>,
}

impl VcTable {
    /// A table for every one of `vc_count` VCs.
    pub fn new(vc_count: usize) -> VcTable {
        VcTable { states: vec![VcState::NEW; vc_count], members: (0..vc_count as u32).collect() }
    }

    /// Makes `members` (ascending) the only VCs the interval's end visits.
    pub fn restrict_to(&mut self, members: Vec<u32>) {
        debug_assert!(members.windows(2).all(|w| w[0] < w[1]));
        self.members = members;
    }

    /// Whether no VC's forward cells pass the port.
    pub fn has_no_members(&self) -> bool {
        self.members.is_empty()
    }

    /// The state of `vc`.
    #[inline]
    pub fn get_mut(&mut self, vc: usize) -> Option<&mut VcState> {
        self.states.get_mut(vc)
    }

    /// The state of `vc` (a new one past the table's end).
    #[inline]
    pub fn get(&self, vc: usize) -> VcState {
        self.states.get(vc).copied().unwrap_or(VcState::NEW)
    }

    /// Runs `f` on each member's state in ascending VC order (the order of
    /// every sum over them).
    #[inline]
    pub fn each_member(&mut self, mut f: impl FnMut(&mut VcState)) {
        for &vc in &self.members {
            f(&mut self.states[vc as usize]);
        }
    }
}
