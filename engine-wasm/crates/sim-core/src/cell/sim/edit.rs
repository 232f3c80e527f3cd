//! What the cell model decides in a parameter change (`set_param`, run by
//! [`crate::session::edit`]): a VC parameter it takes live is checked only as
//! far as the change reaches, so that a slider stays quick with hundreds of
//! VCs; a switch algorithm's knobs are taken live where the algorithm can;
//! any other change is validated with the whole edited scenario and asks for
//! a restart.

use super::build::abr_params;
use super::*;
use crate::session::edit::{self, Editable};

/// What a cell-model edit was validated as.
pub enum CellCheck {
    /// A live VC parameter: the new parameters of each VC the change reaches.
    Vcs(Vec<(String, VcParams)>),
    /// Any other change: the whole edited scenario.
    Whole(Box<Scenario>),
}

/// A live VC parameter's path: `vcs.<id>.<key>` (`Some(id)`) or
/// `defaults.vc.<key>` (`None`, every VC), with its key.
fn live_vc_path<'a>(segments: &[&'a str]) -> Option<(Option<&'a str>, &'a str)> {
    let live = |key: &str| params::all().any(|p| p.scope == Scope::Vc && p.key == key && p.live);
    match *segments {
        ["vcs", id, key] if live(key) => Some((Some(id), key)),
        ["defaults", "vc", key] if live(key) => Some((None, key)),
        _ => None,
    }
}

/// Live VC keys the event estimate reads (`cell/scenario/cost.rs`): a change
/// of one can reach the engine's limits, so [`check_edit`] leaves it to a
/// whole validation.
const COST_KEYS: [&str; 4] = ["pcr_mbps", "tcr_cps", "trm_ms", "nrm"];

/// Checks a change of a live VC parameter as far as it reaches: the
/// parameters of the VCs it applies to (`only`: one VC; `None`: every VC), and
/// the variants that set a parameter checked together with `key`.
fn check_vcs(
    edited: &Value,
    only: Option<&str>,
    key: &str,
) -> Result<Vec<(String, VcParams)>, Vec<ScenarioError>> {
    let params = scenario::vc_params_after_edit(edited, only)?;
    scenario::variants_checked_with(edited, scenario::vc_keys_checked_with(key))?;
    Ok(params)
}

/// Validates a cell scenario (without its `"model"` key) that differs from a
/// valid one only at `path`, as `set_param` checks it, when the change is a
/// live VC parameter the event estimate does not read: with 500 VCs and 16
/// variants a whole validation took about 200 ms, on every step of a slider
/// (for speed). `None`: the change needs a whole validation.
pub fn check_edit(edited: &Value, path: &str) -> Option<Result<(), Vec<ScenarioError>>> {
    let segments: Vec<&str> = path.split('.').collect();
    let (only, key) = live_vc_path(&segments)?;
    if COST_KEYS.contains(&key) {
        return None;
    }
    Some(check_vcs(edited, only, key).map(|_| ()))
}

impl Editable for Simulation {
    type Checked = CellCheck;
    const READS_MODEL_KEY: bool = false;

    /// A live VC parameter validates what the change reaches — the
    /// parameters of the VCs it applies to, and the variants that set a
    /// parameter checked together with its key — rather than the whole
    /// scenario and each of its variants.
    fn check(&self, edited: &Value, segments: &[&str]) -> Result<CellCheck, Vec<ScenarioError>> {
        match live_vc_path(segments) {
            Some((only, key)) => Ok(CellCheck::Vcs(check_vcs(edited, only, key)?)),
            None => Ok(CellCheck::Whole(Box::new(scenario::scenario_from_value(edited)?))),
        }
    }

    fn take(&mut self, segments: &[&str], checked: CellCheck) -> Applied {
        match (checked, segments) {
            (CellCheck::Vcs(params), _) => {
                self.take_vc_params(&params);
                Applied::Live
            }
            (CellCheck::Whole(parsed), [.., "algorithm", _]) => {
                // The algorithms as built from the edited scenario, port by
                // port in the order `build` makes them: only their knobs are
                // taken, so they have no members (and no per-VC tables).
                let fresh = parsed.links.iter().flat_map(|l| l.ports.iter());
                let mut ok = self.ports.len() == 2 * parsed.links.len();
                for (p, spec) in self.ports.iter_mut().zip(fresh) {
                    ok &= p.algorithm.reconfigure_from(&spec.algorithm.build());
                }
                if ok {
                    Applied::Live
                } else {
                    Applied::Restart
                }
            }
            (CellCheck::Whole(_), _) => Applied::Restart,
        }
    }
}

impl Simulation {
    /// Changes one parameter, by the `--set` path grammar, in `scenario` (the
    /// JSON this simulation was built from) and, when the model allows it, in
    /// the running simulation (see [`crate::session::edit::set_param`]).
    pub fn set_param(
        &mut self,
        scenario: &mut Value,
        path: &str,
        raw: &str,
    ) -> Result<Applied, ScenarioError> {
        edit::set_param(self, scenario, path, raw)
    }

    /// Each loop of the VCs in `params` takes its new parameters, keeping its
    /// source's state; ACR is re-clamped to the new [MCR, PCR] (rule 1).
    fn take_vc_params(&mut self, params: &[(String, VcParams)]) {
        let now = self.queue.now();
        for (id, q) in params {
            let reverse = format!("{id}:rev");
            for i in 0..self.vcs.len() {
                if self.vcs[i].id != *id && self.vcs[i].id != reverse {
                    continue;
                }
                let fresh = abr_params(q, &self.vcs[i].fwd_ports, &self.ports);
                let v = &mut self.vcs[i];
                v.account_acr(now);
                let (icr, frtt) = (v.source.params.icr, v.source.params.frtt);
                v.source.params = fresh;
                // ICR and FRTT are settled at set-up, which has happened: keep them.
                if v.source.started {
                    v.source.params.icr = icr;
                    v.source.params.frtt = frtt;
                }
                v.source.acr = v.source.acr.min(v.source.params.pcr).max(v.source.params.mcr);
                if v.lazy.is_some() {
                    // Its coming cells go by the new parameters.
                    self.requeue(now, i as u32, true);
                }
            }
        }
    }
}
