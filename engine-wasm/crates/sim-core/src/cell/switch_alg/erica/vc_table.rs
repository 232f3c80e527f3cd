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

/// Marks a table with other than one member.
const NO_SOLO: u32 = u32::MAX;

/// The per-VC states at one port, indexed by the VC's index in the network,
/// with the port's members: the VCs whose forward cells can pass it. A port
/// with one member (a source's own link, the usual case with many sources)
/// keeps that VC's state inline, beside the port's own counters: one cache
/// line fewer per cell there, and no table the size of the network.
#[derive(Clone, Debug)]
pub(super) struct VcTable {
    /// The only member, or [`NO_SOLO`].
    solo: u32,
    solo_state: VcState,
    /// Indexed by VC; empty for a port with fewer than two members.
    states: Vec<VcState>,
    /// The members, ascending: the only entries the interval's end visits.
    members: Vec<u32>,
}

impl VcTable {
    /// A table for every one of `vc_count` VCs.
    pub fn new(vc_count: usize) -> VcTable {
        VcTable {
            solo: NO_SOLO,
            solo_state: VcState::NEW,
            states: vec![VcState::NEW; vc_count],
            members: (0..vc_count as u32).collect(),
        }
    }

    /// Makes `members` (ascending) the only VCs whose states are kept, with
    /// their states so far.
    pub fn restrict_to(&mut self, members: Vec<u32>) {
        debug_assert!(members.windows(2).all(|w| w[0] < w[1]));
        match members[..] {
            [vc] => {
                self.solo_state = self.get(vc as usize);
                self.solo = vc;
                self.states = Vec::new();
            }
            [] => {
                self.solo = NO_SOLO;
                self.states = Vec::new();
            }
            _ => {
                // Members are never added, so a multi-member table already
                // has every member's entry.
                debug_assert_eq!(self.solo, NO_SOLO);
            }
        }
        self.members = members;
    }

    /// Whether no VC's forward cells pass the port.
    pub fn has_no_members(&self) -> bool {
        self.members.is_empty()
    }

    /// The state of `vc`; None if it is not kept (its forward cells do not
    /// pass the port, so nothing is ever read from it).
    #[inline]
    pub fn get_mut(&mut self, vc: usize) -> Option<&mut VcState> {
        if vc as u32 == self.solo {
            Some(&mut self.solo_state)
        } else {
            self.states.get_mut(vc)
        }
    }

    /// The state of `vc` (a new one if it is not kept).
    #[inline]
    pub fn get(&self, vc: usize) -> VcState {
        if vc as u32 == self.solo {
            self.solo_state
        } else {
            self.states.get(vc).copied().unwrap_or(VcState::NEW)
        }
    }

    /// Runs `f` on each member's state in ascending VC order (the order of
    /// every sum over them).
    #[inline]
    pub fn each_member(&mut self, mut f: impl FnMut(&mut VcState)) {
        if self.solo != NO_SOLO {
            f(&mut self.solo_state);
            return;
        }
        for &vc in &self.members {
            f(&mut self.states[vc as usize]);
        }
    }
}
