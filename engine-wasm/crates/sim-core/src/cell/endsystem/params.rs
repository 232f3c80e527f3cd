//! The negotiated ABR parameters of one VC (Fahmy et al. Table 1), in the units the
//! source rules use: rates in cells per second, times in simulated time.

use crate::time::SimTime;

/// Parameters of an ABR connection after negotiation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AbrParams {
    /// Peak cell rate: ACR never exceeds it (rule 1).
    pub pcr: f64,
    /// Minimum cell rate: ACR never falls below it (rule 1).
    pub mcr: f64,
    /// Initial cell rate as negotiated, before rule 2's TBE/FRTT bound.
    pub icr: f64,
    /// Tagged cell rate: the ceiling for out-of-rate RM cells (rule 11), 10 cells/s.
    pub tcr: f64,
    /// One cell in Nrm is a forward RM cell (rule 3).
    pub nrm: u32,
    /// At least Mrm other cells between FRMs sent because of Trm (rule 3).
    pub mrm: u32,
    /// Upper bound on the time between FRMs (rule 3).
    pub trm: SimTime,
    /// Rate increase factor (rule 9).
    pub rif: f64,
    /// Rate decrease factor (rule 8).
    pub rdf: f64,
    /// ACR decrease time factor (rule 5).
    pub adtf: SimTime,
    /// Transient buffer exposure, in cells (rules 2 and 6).
    pub tbe: f64,
    /// Cutoff decrease factor (rule 6); zero disables rule 6.
    pub cdf: f64,
    /// Rule 6's count set directly; None means ⌈TBE/Nrm⌉ (Table 1).
    pub crm: Option<u64>,
    /// Rule 6 cuts once per CRM FRMs instead of at every FRM after the
    /// CRM-th (the behaviour Fahmy et al.'s Figure 10 shows; TM 4.0 repeats it).
    pub cdf_every_crm: bool,
    /// Fixed round-trip time accumulated along the path at set-up.
    pub frtt: SimTime,
}

impl AbrParams {
    /// CRM = ⌈TBE/Nrm⌉, the count of FRMs without a BRM that triggers rule 6.
    pub fn crm(&self) -> u64 {
        self.crm.unwrap_or_else(|| (self.tbe / self.nrm as f64).ceil().max(1.0) as u64)
    }

    /// The ICR rule 2 starts from: min(negotiated ICR, TBE/FRTT).
    pub fn effective_icr(&self) -> f64 {
        let bound = if self.frtt.0 > 0 { self.tbe / self.frtt.as_secs() } else { f64::INFINITY };
        self.icr.min(bound).max(self.mcr).min(self.pcr)
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// TM 4.0's defaults on an OC-3 link, with ICR just under PCR.
    pub fn oc3() -> AbrParams {
        AbrParams {
            pcr: 366_792.45,
            mcr: 0.0,
            icr: 353_773.6,
            tcr: 10.0,
            nrm: 32,
            mrm: 2,
            trm: SimTime::from_ms(100.0),
            rif: 1.0 / 16.0,
            rdf: 1.0 / 16.0,
            adtf: SimTime::from_ms(500.0),
            tbe: 16_777_215.0,
            cdf: 1.0 / 16.0,
            crm: None,
            cdf_every_crm: false,
            frtt: SimTime::from_ms(30.0),
        }
    }

    #[test]
    fn crm_is_tbe_over_nrm_rounded_up() {
        let p = AbrParams { tbe: 100.0, nrm: 32, ..oc3() };
        assert_eq!(p.crm(), 4);
    }

    #[test]
    fn rule_2_bounds_icr_by_tbe_over_frtt() {
        // TBE 1024 cells over a 550 ms satellite round trip: 1862 cells/s.
        let p = AbrParams { tbe: 1024.0, frtt: SimTime::from_ms(550.0), ..oc3() };
        assert!((p.effective_icr() - 1024.0 / 0.55).abs() < 1e-6);
        // The default TBE does not bind.
        assert_eq!(oc3().effective_icr(), oc3().icr);
    }
}
