//! The fairness measure of Pletka et al. §III-B: the weighted fairness index
//! of equation 2 (Jain's index of x_i / w_i, their reference \[18\]) against
//! a reference allocation w_i, and that reference — max-min fairness with
//! minimum and maximum bandwidth guarantees.
//!
//! The reference gives every flow its minimum guarantee f_min first and
//! shares the rest by water-filling in proportion to a weight, each flow
//! capped at min(demand, f_max) ("MCR plus fair share", ATM Forum TM 4.0
//! appendix). Pletka et al. does not spell the reference out; this reading is the
//! one under which its Figure 1 statement holds — fairness falls as the two
//! f_min drift apart — since BAT itself shares the excess equally whatever
//! the guarantees are. With equal weights and no guarantees it is plain
//! max-min. CLCC's r_ref (Pletka et al. §IV) enters as the class weights.

/// One flow's claim on a resource.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Claim {
    /// Minimum guarantee, bit/s.
    pub min: f64,
    /// Maximum, bit/s.
    pub max: f64,
    /// What the flow would take, bit/s (`INFINITY` for a greedy responsive flow).
    pub demand: f64,
    /// Share of the excess relative to the other flows.
    pub weight: f64,
}

/// The reference allocation of `capacity` among `claims`, bit/s each.
pub fn reference_allocation(capacity: f64, claims: &[Claim]) -> Vec<f64> {
    let cap: Vec<f64> = claims.iter().map(|c| c.demand.min(c.max).max(0.0)).collect();
    let mut x: Vec<f64> = claims.iter().zip(&cap).map(|(c, &k)| c.min.max(0.0).min(k)).collect();
    let guaranteed: f64 = x.iter().sum();
    if guaranteed >= capacity {
        // Over-committed guarantees: scale them down to fit.
        let scale = if guaranteed > 0.0 { capacity / guaranteed } else { 0.0 };
        return x.iter().map(|v| v * scale).collect();
    }
    let mut remaining = capacity - guaranteed;
    let mut open: Vec<usize> =
        (0..claims.len()).filter(|&i| x[i] < cap[i] && claims[i].weight > 0.0).collect();
    while remaining > capacity * 1e-12 && !open.is_empty() {
        let total_weight: f64 = open.iter().map(|&i| claims[i].weight).sum();
        // The water level rises until the excess is gone or a flow is capped.
        let mut level = remaining / total_weight;
        for &i in &open {
            level = level.min((cap[i] - x[i]) / claims[i].weight);
        }
        for &i in &open {
            x[i] += level * claims[i].weight;
        }
        remaining -= level * total_weight;
        open.retain(|&i| cap[i] - x[i] > cap[i].max(1.0) * 1e-12);
    }
    x
}

/// Pletka et al. equation 2: (Σ x_i/w_i)² / (n Σ (x_i/w_i)²) over the flows with a
/// positive reference. 1 when everyone gets exactly its reference; `None`
/// when there is nothing to judge.
pub fn weighted_fairness_index(measured: &[f64], reference: &[f64]) -> Option<f64> {
    let ratios: Vec<f64> = measured
        .iter()
        .zip(reference)
        .filter(|(_, &w)| w > 0.0)
        .map(|(&x, &w)| x.max(0.0) / w)
        .collect();
    let n = ratios.len() as f64;
    let sum: f64 = ratios.iter().sum();
    let sum_sq: f64 = ratios.iter().map(|r| r * r).sum();
    if n == 0.0 || sum_sq == 0.0 {
        return None;
    }
    Some((sum * sum / (n * sum_sq)).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cbr(min: f64) -> Claim {
        Claim { min, max: 100.0, demand: 100.0, weight: 1.0 }
    }

    #[test]
    fn guarantees_first_then_an_equal_share_of_the_rest() {
        assert_eq!(reference_allocation(100.0, &[cbr(0.0), cbr(0.0)]), vec![50.0, 50.0]);
        assert_eq!(reference_allocation(100.0, &[cbr(0.0), cbr(50.0)]), vec![25.0, 75.0]);
        assert_eq!(reference_allocation(100.0, &[cbr(50.0), cbr(50.0)]), vec![50.0, 50.0]);
    }

    #[test]
    fn demands_and_maxima_cap_and_the_rest_goes_on() {
        let small = Claim { min: 0.0, max: 100.0, demand: 10.0, weight: 1.0 };
        let greedy = Claim { min: 0.0, max: 100.0, demand: f64::INFINITY, weight: 1.0 };
        assert_eq!(reference_allocation(100.0, &[small, greedy]), vec![10.0, 90.0]);
        let capped = Claim { max: 30.0, ..greedy };
        assert_eq!(reference_allocation(100.0, &[capped, greedy]), vec![30.0, 70.0]);
    }

    #[test]
    fn weights_give_the_clcc_reference_ratio() {
        let r_ref = 30.0 / 70.0;
        let udp = Claim { min: 0.0, max: f64::INFINITY, demand: 90.0, weight: r_ref };
        let tcp = Claim { min: 0.0, max: f64::INFINITY, demand: f64::INFINITY, weight: 1.0 };
        let x = reference_allocation(100.0, &[udp, tcp]);
        assert!((x[0] - 30.0).abs() < 1e-9 && (x[1] - 70.0).abs() < 1e-9, "{x:?}");
    }

    #[test]
    fn equation_2() {
        assert_eq!(weighted_fairness_index(&[25.0, 75.0], &[25.0, 75.0]), Some(1.0));
        // Equal split against a 25/75 reference: ratios 2 and 2/3 → 0.8.
        let f = weighted_fairness_index(&[50.0, 50.0], &[25.0, 75.0]).unwrap();
        assert!((f - 0.8).abs() < 1e-12, "{f}");
        // One flow starved: 1/n.
        assert_eq!(weighted_fairness_index(&[0.0, 10.0], &[5.0, 5.0]), Some(0.5));
        assert_eq!(weighted_fairness_index(&[0.0], &[0.0]), None);
    }
}
