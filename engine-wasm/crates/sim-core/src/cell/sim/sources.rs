//! Sources whose data cells reach the switch without events.
//!
//! A sole sender (`Vc::sole_sender`) already sends without events of its
//! own: one `Event::HostArrive` per cell brings it to the switch. When every
//! link into a last trunk is the host link of such a source (the N-source
//! workload, the reference workload), the data cells need no event either:
//! nothing can see them before they enter the trunk, which is lazy itself,
//! so they land there when something reads or changes it, merged in order
//! of arrival. Only a source's RM cells (its FRMs, and the BRMs it sends for
//! a partner loop) still arrive as events: an FRM crossing the trunk must
//! have its arrival at the destination scheduled before it gets there, and
//! an RM cell is where the switch algorithm and the other end act.
//!
//! The source knows when each of its cells goes until something from
//! outside changes it — a BRM coming back, a partner's BRM handed to it, a
//! traffic edge, a parameter edit — so which of its coming cells is the next
//! RM cell is found ahead, by rule 3's count in the steady state or else by
//! running a copy of it ([`AbrSource::next_rm_at`]); each such change finds
//! it again ([`Simulation::requeue`]).
//!
//! At equal arrival times, the source listed first lands first, and every
//! data cell arriving at an instant lands before the events of that instant
//! (with one `HostArrive` per cell, the order in which they were scheduled
//! decided).

use super::*;

/// A source whose data cells land without events: the merge its host link
/// feeds, and its leaf there.
#[derive(Clone, Copy, Debug)]
pub struct LazySource {
    pub merge: u32,
    pub leaf: u32,
}

/// The sources feeding one last trunk, as a tournament tree on when each
/// one's next data cell reaches the switch ([`Simulation::source_key`]):
/// the first to land is read at the root, and a source's new time is put in
/// with one comparison per level — `log2` of the sources, where the event
/// queue's push and pop per cell cost more and more as the sources grow
/// (for speed). Each node holds its winner's time as well as its leaf, so
/// that a new time climbs to the root reading only the siblings on its
/// way, all known before the first comparison: a tree of leaf numbers alone
/// read each winner's time through its number, one dependent load after
/// another, and cost 3 % of the run at 2 sources and a fifth at 50. The
/// standard library has no priority queue whose entries change in place,
/// and the crates that have one (`priority-queue`, `keyed_priority_queue`)
/// hash their keys.
#[derive(Debug)]
pub struct SourceMerge {
    /// The loop at each leaf, and its host port.
    sources: Vec<(u32, u32)>,
    /// `nodes[j]` for `1 ≤ j < leaves` is the winner under node `j`
    /// (children `2j` and `2j + 1`; at equal times the left one);
    /// `nodes[leaves + i]` is leaf `i`, [`IDLE`] while it has no
    /// data cell to land (and at the leaves that pad the tree).
    nodes: Vec<Entry>,
}

/// The key of a leaf with no data cell to land ([`SimTime::NEVER`]), one
/// below the largest so that a key plus one never wraps.
const IDLE: u64 = u64::MAX - 1;

/// A leaf and its time in picoseconds.
#[derive(Clone, Copy, Debug)]
struct Entry {
    key: u64,
    leaf: u32,
}

impl SourceMerge {
    pub fn new(sources: Vec<(u32, u32)>) -> SourceMerge {
        let leaves = sources.len().next_power_of_two();
        let mut nodes = vec![Entry { key: IDLE, leaf: 0 }; 2 * leaves];
        for i in 0..leaves {
            nodes[leaves + i].leaf = i as u32;
        }
        for j in (1..leaves).rev() {
            nodes[j] = nodes[2 * j];
        }
        SourceMerge { sources, nodes }
    }

    /// The leaf whose cell lands first, and when.
    #[inline]
    fn first(&self) -> (u32, SimTime) {
        let e = self.nodes[1];
        (e.leaf, if e.key == IDLE { SimTime::NEVER } else { SimTime(e.key) })
    }

    /// Gives `leaf` a new time.
    #[inline]
    fn set(&mut self, leaf: u32, key: SimTime) {
        let mut j = self.nodes.len() / 2 + leaf as usize;
        let mut winner = Entry { key: key.0.min(IDLE), leaf };
        self.nodes[j] = winner;
        while j > 1 {
            let sibling = self.nodes[j ^ 1];
            // At equal times the left one: the sibling when it is on the left
            // (odd `j`), `≤` then being `<` one more (no key exceeds `IDLE`).
            let sibling_wins = sibling.key < winner.key + (j & 1) as u64;
            // A select, not a branch: with many sources which side wins is
            // as likely one way as the other, and a branch guessed wrong at
            // half the levels cost 7 % of the run at 200 sources. (Both in
            // one `u128`, time above leaf, LLVM made a branch of it again.)
            winner = std::hint::select_unpredictable(sibling_wins, sibling, winner);
            j /= 2;
            self.nodes[j] = winner;
        }
    }
}

/// From a lazy source's host port `p`: its link's first cell, which lands
/// at `at` without an event, taken off once the port is caught up to then.
#[inline(always)]
fn take_landing(p: &mut Port, at: SimTime) -> Cell {
    let _ = p.catch_up(at);
    let (landed, cell, due) = p.wire.pop_front().expect("its next cell");
    debug_assert!(landed == at && !due, "{landed} {at} {due}");
    cell
}

impl Vc {
    /// A lazy source's next RM cell still to send, found again if the one
    /// it knew has gone.
    #[inline]
    fn find_rm_cell(&mut self) {
        if self.source.next_send.is_some_and(|t| t > self.rm_at) {
            self.rm_at = self.source.next_rm_at();
        }
    }
}

impl Simulation {
    /// Lands, each at its time and in order, every data cell of merge `m`'s
    /// sources that has reached their switch by `now`: each goes on into the
    /// trunk as its arrival event would have sent it.
    #[inline(never)]
    pub(super) fn land_sources(&mut self, now: SimTime, m: u32) {
        loop {
            let (leaf, at) = self.merges[m as usize].first();
            if at > now {
                return;
            }
            let (vc, host) = self.merges[m as usize].sources[leaf as usize];
            let p = &mut self.ports[host as usize];
            // Sent before (its link's first), the usual case on a long link:
            // every backward RM cell catches the source up, and the cells it
            // sent by then are still on their way. The loop's record is not
            // read then (with fifty sources it is a cache miss).
            let mut cell = if !p.wire.is_empty() {
                take_landing(p, at)
            } else {
                let v = &mut self.vcs[vc as usize];
                match v.source.next_send {
                    // Not sent yet, and the port idle when it goes: sent, and
                    // at the switch at once.
                    Some(t) if t >= p.free_at() => {
                        let cell = v.send(t, vc).expect("a data cell");
                        debug_assert_eq!(cell.kind, CellKind::Data);
                        self.source_cells += 1;
                        let landed = p.pass(t);
                        debug_assert_eq!(landed, at);
                        cell
                    }
                    // Else sent now, to wait for the cell before it.
                    _ => {
                        self.catch_up_source(at, vc);
                        take_landing(&mut self.ports[host as usize], at)
                    }
                }
            };
            let key = self.source_key(vc, host);
            self.merges[m as usize].set(leaf, key);
            self.deliver(at, host, &mut cell);
        }
    }

    /// When `vc`'s next cell reaches the switch, if it is a data cell and
    /// known to be one; else [`SimTime::NEVER`] (an RM cell, whose arrival
    /// is an event; or nothing to send). The source and its host port must
    /// have been caught up to the last time they were touched: then an empty
    /// link means a port with nothing waiting, and the next cell starts
    /// when it is sent or when the last one is through.
    /// Its host port `host` is read first: while the link holds cells the
    /// loop's record is not read.
    #[inline]
    fn source_key(&self, vc: u32, host: u32) -> SimTime {
        let p = &self.ports[host as usize];
        match p.wire.head() {
            Some((_, true)) => SimTime::NEVER,
            Some((at, false)) => at,
            None => {
                let v = &self.vcs[vc as usize];
                match v.source.next_send {
                    Some(t) if t < v.rm_at => t.max(p.free_at()) + p.cell_time + p.delay,
                    _ => SimTime::NEVER,
                }
            }
        }
    }

    /// Brings `vc`'s host port to `now` and its RM cell still to send up
    /// to date (found again when `changed`, or once it was sent), then arms
    /// its `HostArrive` and gives it its place in its merge.
    pub(super) fn requeue(&mut self, now: SimTime, vc: u32, changed: bool) {
        let v = &mut self.vcs[vc as usize];
        let p = &mut self.ports[v.host_port as usize];
        let _ = p.catch_up(now);
        if changed {
            v.rm_at = v.source.next_rm_at();
        } else {
            v.find_rm_cell();
        }
        self.arm_lazy(vc);
        let key = self.source_key(vc, self.vcs[vc as usize].host_port);
        let lazy = self.vcs[vc as usize].lazy.expect("a lazy source");
        self.merges[lazy.merge as usize].set(lazy.leaf, key);
    }

    /// Makes sure `vc`'s `HostArrive` is pending no later than the arrival
    /// of its next RM cell: on the link, or still to send (at the earliest
    /// when it goes; if the RM cell it knew went, its next cell's), or
    /// waiting at its host port, which a source sending below TCR can make
    /// hold a cell or two (the next waiting cell's arrival then: the event
    /// starts it and looks again).
    fn arm_lazy(&mut self, vc: u32) {
        let v = &mut self.vcs[vc as usize];
        let p = &self.ports[v.host_port as usize];
        let hop = p.cell_time + p.delay;
        let unsent = match v.source.next_send {
            Some(t) if v.rm_at != SimTime::NEVER => Some(t.max(v.rm_at) + hop),
            _ => None,
        };
        let waiting = (p.queue_len() > 0).then(|| p.wire.back_time()).flatten();
        let waiting = waiting.map(|last| last + p.cell_time);
        let Some(at) = [p.wire.next_due(), unsent, waiting].into_iter().flatten().min() else {
            return;
        };
        if v.armed.is_some_and(|a| a <= at) {
            return;
        }
        v.armed = Some(at);
        v.source.generation = v.source.generation.wrapping_add(1);
        self.queue.schedule(at, Event::HostArrive { vc, generation: v.source.generation });
    }

    /// A lazy source's `HostArrive`: the data cells of its merge that came
    /// by `now` land, then its RM cell arriving now, if one does. Only that
    /// cell is sent here if it was not yet: the data cells after it are
    /// sent as they land, with no stop on the link.
    pub(super) fn on_lazy_arrive(&mut self, now: SimTime, vc: u32, merge: u32) {
        self.land_sources(now, merge);
        let v = &mut self.vcs[vc as usize];
        v.find_rm_cell();
        let rm_at = v.rm_at;
        if rm_at <= now {
            self.catch_up_source(rm_at, vc);
        }
        let host = self.vcs[vc as usize].host_port;
        let p = &mut self.ports[host as usize];
        let _ = p.catch_up(now);
        if p.wire.next_due() != Some(now) {
            self.requeue(now, vc, false);
            return;
        }
        // The data cells ahead of it arrived earlier and have landed.
        let (at, mut cell, due) = p.wire.pop_front().expect("an RM cell arrives now");
        debug_assert!(at == now && due);
        self.requeue(now, vc, false);
        self.deliver(now, host, &mut cell);
    }
}

/// Makes the sole senders into each last trunk lazy sources when every link
/// into the trunk is one's host link and nothing else enters it (build.rs's
/// `lazy_links` made the trunk lazy, and left its feeders alone: host links
/// that several sources share are merged there). Returns the merges.
pub(super) fn lazy_sources(
    ports: &mut [Port],
    vcs: &mut [Vc],
    senders: &[u32],
    next: &[Vec<u32>],
    feeders: &[Vec<u32>],
    first: &[bool],
) -> Vec<SourceMerge> {
    let mut merges = Vec::new();
    let mut sender_of = vec![None; ports.len()];
    for (i, v) in vcs.iter().enumerate() {
        if v.sole_sender && v.message_cells.is_none() {
            sender_of[v.host_port as usize] = Some(i as u32);
        }
    }
    for trunk in 0..ports.len() {
        let links = &feeders[trunk];
        let lazy = |w: u32| {
            let p = &ports[w as usize];
            sender_of[w as usize].is_some()
                && senders[w as usize] == 1
                && !p.algorithm.sees_departures()
                && p.starts == Starts::CaughtUp
                && next[w as usize] == [trunk as u32]
        };
        if ports[trunk].starts != Starts::Guarded
            || !ports[trunk].feeders.is_empty()
            || first[trunk]
            || links.is_empty()
            || !links.iter().all(|&w| lazy(w))
        {
            continue;
        }
        let m = merges.len() as u32;
        let sources: Vec<(u32, u32)> =
            links.iter().map(|&w| (sender_of[w as usize].expect("lazy"), w)).collect();
        for (leaf, &(vc, w)) in sources.iter().enumerate() {
            let p = &mut ports[w as usize];
            p.wire.set_lazy(true);
            p.starts = Starts::BySource;
            vcs[vc as usize].lazy = Some(LazySource { merge: m, leaf: leaf as u32 });
        }
        ports[trunk].merge = Some(m);
        merges.push(SourceMerge::new(sources));
    }
    merges
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_merge_gives_the_least_time_and_at_equal_times_the_first_leaf() {
        let mut rng = kernel::Rng::new(3, 0);
        for n in [1usize, 2, 3, 5, 8, 50] {
            let mut merge = SourceMerge::new((0..n as u32).map(|i| (i, i)).collect());
            let mut keys = vec![u64::MAX; n];
            assert_eq!(merge.first().1, SimTime::NEVER);
            for _ in 0..2_000 {
                let leaf = (rng.next_u64() % n as u64) as usize;
                keys[leaf] = match rng.next_u64() % 6 {
                    0 => u64::MAX,
                    // The latest a cell can land, just below the idle key.
                    1 => u64::MAX - 2,
                    _ => rng.next_u64() % 20,
                };
                merge.set(leaf as u32, SimTime(keys[leaf]));
                let least = *keys.iter().min().expect("n ≥ 1");
                let first = keys.iter().position(|&k| k == least).expect("there") as u32;
                assert_eq!(merge.first(), (first, SimTime(least)));
            }
        }
    }
}
