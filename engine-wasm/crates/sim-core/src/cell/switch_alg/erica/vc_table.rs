//! ERICA's per-VC table at one port. It is indexed by the VC's index in the
//! network (less the first member's) wherever the members lie close enough
//! together: a table of the members alone needs a map from one index to the
//! other, and that extra dependent load per cell cost as much as the smaller
//! table saved (measured at 2 to 200 sources). The interval's end
//! visits only the members.

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

/// The per-VC states at one port, for the port's members: the VCs whose
/// forward cells can pass it. A port with one member (a source's own link,
/// the usual case with many sources) keeps that VC's state inline, beside
/// the port's own counters: one cache line fewer per cell there. A port with
/// more keeps one state per VC over the span of its members' indices, the
/// VC's index less the span's first giving its entry, unless the members are
/// too far apart for that (at most two entries per member and 64 more): then
/// one state per member, found by binary search. So the tables of a network
/// take memory in proportion to its VCs' hops, not to its ports times its
/// VCs (2,000 sources through two switches had taken 640 MB).
#[derive(Clone, Debug)]
pub(super) struct VcTable {
    /// The only member, or [`NO_SOLO`].
    solo: u32,
    solo_state: VcState,
    /// `states[vc − base]` over the members' span, or `states[k]` for
    /// `members[k]` when `sparse`; empty for a port with fewer than two members.
    states: Vec<VcState>,
    base: u32,
    sparse: bool,
    /// The members, ascending: the only entries the interval's end visits.
    members: Vec<u32>,
}

impl VcTable {
    /// A table for `members` (ascending, distinct), each state new.
    pub fn new(members: Vec<u32>) -> VcTable {
        debug_assert!(members.windows(2).all(|w| w[0] < w[1]));
        let mut table = VcTable {
            solo: NO_SOLO,
            solo_state: VcState::NEW,
            states: Vec::new(),
            base: 0,
            sparse: false,
            members,
        };
        match table.members[..] {
            [] => {}
            [vc] => table.solo = vc,
            [first, .., last] => {
                let span = (last - first) as usize + 1;
                let count = table.members.len();
                table.sparse = span > 2 * count + 64;
                table.base = first;
                table.states = vec![VcState::NEW; if table.sparse { count } else { span }];
            }
        }
        table
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
        } else if !self.sparse {
            self.states.get_mut((vc as u32).wrapping_sub(self.base) as usize)
        } else {
            let k = self.members.binary_search(&(vc as u32)).ok()?;
            Some(&mut self.states[k])
        }
    }

    /// The state of `vc` (a new one if it is not kept).
    #[inline]
    pub fn get(&self, vc: usize) -> VcState {
        if vc as u32 == self.solo {
            self.solo_state
        } else if !self.sparse {
            let i = (vc as u32).wrapping_sub(self.base) as usize;
            self.states.get(i).copied().unwrap_or(VcState::NEW)
        } else {
            self.members.binary_search(&(vc as u32)).map_or(VcState::NEW, |k| self.states[k])
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
        if self.sparse {
            self.states.iter_mut().for_each(f);
        } else {
            for &vc in &self.members {
                f(&mut self.states[(vc - self.base) as usize]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_holds_states_for_its_members_span_or_for_them_alone() {
        let sizes = |members: Vec<u32>| {
            let t = VcTable::new(members);
            (t.states.len(), t.sparse)
        };
        assert_eq!(sizes(vec![]), (0, false));
        assert_eq!(sizes(vec![1999]), (0, false), "one member: inline");
        assert_eq!(sizes((1000..1050).collect()), (50, false));
        assert_eq!(sizes(vec![1000, 1002, 1060]), (61, false), "within 2 × 3 + 64");
        assert_eq!(sizes(vec![1000, 1002, 1100]), (3, true), "beyond it");
        assert_eq!(sizes(vec![0, 1999]), (2, true));
        let mut t = VcTable::new(vec![0, 700, 1999]);
        t.get_mut(700).expect("a member").cells = 7;
        assert!(t.get_mut(701).is_none());
        assert_eq!(t.get(700).cells, 7);
        let mut order = Vec::new();
        t.each_member(|st| order.push(st.cells));
        assert_eq!(order, [0, 7, 0]);
    }
}
