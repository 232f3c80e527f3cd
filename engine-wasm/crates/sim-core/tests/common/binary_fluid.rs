//! A first-order fluid model of ABR sources behind one binary (EFCI) switch,
//! the method of the analysis Ohsaki et al. take their RIF/RDF pairs from
//! ("Performance of Rate-Based Congestion Control Algorithm with Binary-Mode
//! Switch in ATM Networks", §II and its references [10]–[12]): each VC's ACR
//! rises by RIF·PCR per backward RM cell with CI = 0 and falls by RDF·ACR per
//! one with CI = 1, backward RM cells come back at the rate the source sent
//! one round trip earlier over Nrm, and the switch is congested while its
//! queue is above Q_H. The constants are §II's: 150 Mbit/s links, PCR 150,
//! MCR PCR/1000, ICR PCR/20, Nrm 32, a 5,796-cell buffer, Q_H half of it.
//! The paper gives its analysis's method (a first-order fluid approximation
//! of the standard's source rules, for a single hop), not its equations: this
//! model is built from those rules, per VC, and integrated numerically.

/// A first-order fluid model of N ABR sources behind one binary switch, each
/// VC with its own delays: source to switch, and switch to destination and
/// back to the source.
pub struct Fluid {
    /// (source → switch, switch → destination → source) in ms, per VC.
    pub delays: Vec<(f64, f64)>,
    /// Rate increase factor.
    pub rif: f64,
    /// Rate decrease factor.
    pub rdf: f64,
}

/// What the switch saw over the measuring window.
#[derive(Debug)]
pub struct FluidResult {
    /// The share of the window the output link was busy.
    pub utilization: f64,
    /// The smallest queue, in cells.
    pub q_min: f64,
    /// The largest queue, in cells.
    pub q_max: f64,
    /// Cells lost to the full buffer since t = 0.
    pub lost: f64,
    /// When each VC's ACR first reached PCR (ms), if it did.
    pub at_pcr_ms: Vec<Option<f64>>,
    /// When the queue first passed Q_H (ms), if it did.
    pub past_q_h_ms: Option<f64>,
}

impl Fluid {
    /// Ohsaki et al.'s parking lot (§II, Fig. 1) seen from SW4, with `hop_ms`
    /// between switches: VC n is 4 − n hops upstream of SW4, and its marks
    /// travel SW4 → SW5 → destination → SW5 → SWn → source, 6 − n hops (host
    /// links 0.001 ms each).
    pub fn parking_lot(hop_ms: f64, rif: f64, rdf: f64) -> Fluid {
        let delays = (1..=4)
            .map(|n| ((4 - n) as f64 * hop_ms + 0.001, (6 - n) as f64 * hop_ms + 0.003))
            .collect();
        Fluid { delays, rif, rdf }
    }

    /// Runs from t = 0 (every VC at ICR, the queue empty) to the end of
    /// `window`, and measures SW4 over `window` (ms).
    pub fn run(&self, window: (f64, f64)) -> FluidResult {
        const DT: f64 = 0.001;
        const C: f64 = 353.7; // cells/ms, 150 Mbit/s
        const PCR: f64 = C;
        const MCR: f64 = PCR / 1000.0;
        const NRM: f64 = 32.0;
        const Q_H: f64 = 2898.0;
        const BUFFER: f64 = 5796.0;
        let steps = (window.1 / DT) as usize;
        let lag = |ms: f64| (ms / DT).round() as usize;
        let icr = PCR / 20.0;
        let mut rates: Vec<Vec<f64>> = vec![vec![icr; steps + 1]; self.delays.len()];
        let mut congested = vec![false; steps + 1];
        let (mut q, mut busy, mut samples, mut lost) = (0.0_f64, 0.0, 0.0, 0.0);
        let (mut q_min, mut q_max) = (f64::INFINITY, 0.0_f64);
        let mut at_pcr_ms = vec![None; self.delays.len()];
        let mut past_q_h_ms = None;
        for k in 0..steps {
            let mut arriving = 0.0;
            for ((rate, &(to_switch, back)), at_pcr) in
                rates.iter_mut().zip(&self.delays).zip(&mut at_pcr_ms)
            {
                let (sx, b) = (lag(to_switch), lag(back));
                let marked = k >= b && congested[k - b];
                let brm_rate = if k >= sx + b { rate[k - sx - b] } else { rate[k] } / NRM;
                let r = rate[k];
                let next = if marked {
                    r - self.rdf * r * brm_rate * DT
                } else {
                    r + self.rif * PCR * brm_rate * DT
                };
                rate[k + 1] = next.clamp(MCR, PCR);
                if rate[k + 1] >= PCR && at_pcr.is_none() {
                    *at_pcr = Some((k + 1) as f64 * DT);
                }
                arriving += if k >= sx { rate[k - sx] } else { icr };
            }
            let served = if q > 0.0 || arriving >= C { C } else { arriving };
            q = (q + (arriving - served) * DT).max(0.0);
            if q > BUFFER {
                lost += q - BUFFER;
                q = BUFFER;
            }
            congested[k + 1] = q > Q_H;
            if q > Q_H && past_q_h_ms.is_none() {
                past_q_h_ms = Some((k + 1) as f64 * DT);
            }
            if k as f64 * DT >= window.0 {
                busy += served / C;
                samples += 1.0;
                q_min = q_min.min(q);
                q_max = q_max.max(q);
            }
        }
        FluidResult { utilization: busy / samples, q_min, q_max, lost, at_pcr_ms, past_q_h_ms }
    }
}
