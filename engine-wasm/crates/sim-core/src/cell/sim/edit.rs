//! A parameter change during a cell-model run (`set_param`): a VC parameter
//! the model takes live, checked as far as the change reaches, or any other
//! change validated with the whole edited scenario.

use super::build::abr_params;
use super::*;

impl Simulation {
    /// Changes one parameter, by the `--set` path grammar, in `scenario` (the
    /// JSON this simulation was built from) and, when the model allows it, in
    /// the running simulation. A VC parameter the model takes live is checked
    /// as far as the change reaches (see [`Simulation::set_vc_param`]); any
    /// other change is validated with the whole edited scenario.
    pub fn set_param(
        &mut self,
        scenario: &mut Value,
        path: &str,
        raw: &str,
    ) -> Result<Applied, ScenarioError> {
        let segments: Vec<&str> = path.split('.').collect();
        let live_vc_key =
            |key: &str| params::all().any(|p| p.scope == Scope::Vc && p.key == key && p.live);
        match segments.as_slice() {
            ["vcs", id, key] if live_vc_key(key) => {
                return self.set_vc_param(scenario, path, raw, Some(id), key)
            }
            ["defaults", "vc", key] if live_vc_key(key) => {
                return self.set_vc_param(scenario, path, raw, None, key)
            }
            _ => {}
        }
        let mut edited = scenario.clone();
        apply_set(&mut edited, path, raw)?;
        let parsed =
            scenario::scenario_from_value(&edited).map_err(|errors| first(errors, path))?;
        *scenario = edited;
        let applied = match segments.as_slice() {
            [.., "algorithm", _] => {
                // The algorithms as built from the edited scenario, port by
                // port in the order `build` makes them.
                let loops: usize = parsed.vcs.iter().map(|v| 1 + v.bidirectional as usize).sum();
                let fresh = parsed.links.iter().flat_map(|l| l.ports.iter());
                let mut ok = self.ports.len() == 2 * parsed.links.len();
                for (p, spec) in self.ports.iter_mut().zip(fresh) {
                    ok &= p.algorithm.reconfigure_from(&spec.algorithm.build(loops));
                }
                if ok {
                    Applied::Live
                } else {
                    Applied::Restart
                }
            }
            _ => Applied::Restart,
        };
        Ok(applied)
    }

    /// A live VC parameter (`vcs.<id>.<key>`, or `defaults.vc.<key>` for
    /// every VC): validates what the change reaches — the parameters of the
    /// VCs it applies to, and the variants that set a parameter checked
    /// together with `key` — rather than the whole scenario and each of its
    /// variants, so that a slider stays quick with hundreds of VCs. Each
    /// chosen loop then takes its new parameters, keeping its source's
    /// state; ACR is re-clamped to the new [MCR, PCR] (rule 1).
    pub(super) fn set_vc_param(
        &mut self,
        scenario: &mut Value,
        path: &str,
        raw: &str,
        only: Option<&str>,
        key: &str,
    ) -> Result<Applied, ScenarioError> {
        let mut edited = scenario.clone();
        apply_set(&mut edited, path, raw)?;
        let params =
            scenario::vc_params_after_edit(&edited, only).map_err(|errors| first(errors, path))?;
        scenario::variants_checked_with(&edited, scenario::vc_keys_checked_with(key))
            .map_err(|errors| first(errors, path))?;
        *scenario = edited;
        let now = self.queue.now();
        for (id, q) in &params {
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
            }
        }
        Ok(Applied::Live)
    }
}

/// The first of a validation's errors (there is at least one).
pub(super) fn first(errors: Vec<ScenarioError>, path: &str) -> ScenarioError {
    errors.into_iter().next().unwrap_or_else(|| ScenarioError::new(path, "invalid value"))
}
