//! The global max-min fair allocation by water-filling: raise every
//! unfrozen flow's rate equally until a link saturates or a flow reaches its
//! demand, freeze those flows, repeat (Bertsekas & Gallager's progressive
//! filling). This is the reference the simulated rates are compared with.

use std::cell::Cell;

thread_local! {
    /// Steps of water-filling done on this thread (see [`oracle_steps`]).
    static STEPS: Cell<u64> = const { Cell::new(0) };
}

/// The water-filling steps [`max_min_fair`] has taken on this thread: a flow
/// or a resource looked at. The cost model's oracle term is an estimate of
/// these, and the bounded-cost test holds it to the count.
pub fn oracle_steps() -> u64 {
    STEPS.with(Cell::get)
}

/// Counts `n` steps taken for the oracle outside [`max_min_fair`]: a
/// resource or a flow looked at in gathering its inputs.
pub fn count_oracle_steps(n: u64) {
    STEPS.with(|s| s.set(s.get() + n));
}

/// A flow for the oracle: the resources it crosses and the most it wants.
#[derive(Clone, Debug)]
pub struct Flow {
    pub resources: Vec<u32>,
    pub demand: f64,
}

/// The max-min fair rates of `flows` over resources of the given capacities.
/// Inactive flows are simply left out by the caller.
pub fn max_min_fair(capacity: &[f64], flows: &[Flow]) -> Vec<f64> {
    let mut rate = vec![0.0; flows.len()];
    let mut frozen: Vec<bool> = flows.iter().map(|f| f.demand <= 0.0).collect();
    let mut used = vec![0.0; capacity.len()];
    let mut crossing = vec![0u32; capacity.len()];
    const EPS: f64 = 1e-9;
    let hops: usize = flows.iter().map(|f| f.resources.len()).sum();
    let per_round = (2 * hops + 3 * flows.len() + capacity.len()) as u64;
    STEPS.with(|s| s.set(s.get() + (capacity.len() + flows.len()) as u64));
    loop {
        STEPS.with(|s| s.set(s.get() + per_round));
        crossing.iter_mut().for_each(|c| *c = 0);
        let mut any = false;
        for (i, f) in flows.iter().enumerate() {
            if !frozen[i] {
                any = true;
                for &r in &f.resources {
                    crossing[r as usize] += 1;
                }
            }
        }
        if !any {
            return rate;
        }
        // The largest equal increment every unfrozen flow can take.
        let mut inc = f64::INFINITY;
        for (r, &n) in crossing.iter().enumerate() {
            if n > 0 {
                inc = inc.min(((capacity[r] - used[r]) / n as f64).max(0.0));
            }
        }
        for (i, f) in flows.iter().enumerate() {
            if !frozen[i] {
                inc = inc.min(f.demand - rate[i]);
            }
        }
        for (i, f) in flows.iter().enumerate() {
            if !frozen[i] {
                rate[i] += inc;
                for &r in &f.resources {
                    used[r as usize] += inc;
                }
            }
        }
        // Freeze flows that met their demand or cross a saturated resource.
        for (i, f) in flows.iter().enumerate() {
            if frozen[i] {
                continue;
            }
            let saturated = f.resources.iter().any(|&r| {
                capacity[r as usize] - used[r as usize] <= EPS * capacity[r as usize].max(1.0)
            });
            if saturated || f.demand - rate[i] <= EPS * f.demand.max(1.0) {
                frozen[i] = true;
            }
        }
    }
}

/// Jain's fairness index (Σx)²/(n·Σx²) of `rates` normalised by their fair
/// shares (Jain et al. "Fairness: max-min allocation and fairness index").
pub fn jain_index(rates: &[f64], fair: &[f64]) -> f64 {
    let xs: Vec<f64> =
        rates.iter().zip(fair).filter(|(_, f)| **f > 0.0).map(|(r, f)| r / f).collect();
    if xs.is_empty() {
        return 1.0;
    }
    let sum: f64 = xs.iter().sum();
    let sq: f64 = xs.iter().map(|x| x * x).sum();
    if sq == 0.0 {
        return 1.0;
    }
    sum * sum / (xs.len() as f64 * sq)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flow(resources: &[u32], demand: f64) -> Flow {
        Flow { resources: resources.to_vec(), demand }
    }

    #[test]
    fn equal_split_of_one_bottleneck() {
        let r = max_min_fair(&[140.0], &[flow(&[0], 1e9), flow(&[0], 1e9)]);
        assert_eq!(r, vec![70.0, 70.0]);
    }

    #[test]
    fn the_fairness_fix_example_of_seed_004() {
        // One VC held to 10 Mbit/s elsewhere (resource 1), two free VCs on a
        // 150 Mbit/s link: max-min gives {10, 70, 70}.
        let r =
            max_min_fair(&[150.0, 10.0], &[flow(&[0, 1], 1e9), flow(&[0], 1e9), flow(&[0], 1e9)]);
        assert_eq!(r, vec![10.0, 70.0, 70.0]);
    }

    #[test]
    fn parking_lot_with_a_demand_limited_flow() {
        // Links 0 and 1 of 100; flow A crosses both; B on 0; C on 1 wants 20.
        let r =
            max_min_fair(&[100.0, 100.0], &[flow(&[0, 1], 1e9), flow(&[0], 1e9), flow(&[1], 20.0)]);
        assert_eq!(r, vec![50.0, 50.0, 20.0]);
    }

    #[test]
    fn jain_index_is_one_when_fair_and_one_over_n_when_one_takes_all() {
        assert!((jain_index(&[70.0, 70.0], &[70.0, 70.0]) - 1.0).abs() < 1e-12);
        assert!((jain_index(&[140.0, 0.0], &[70.0, 70.0]) - 0.5).abs() < 1e-12);
    }
}
