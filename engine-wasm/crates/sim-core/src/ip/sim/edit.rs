//! A parameter change during a packet-model run (`set_param`).

use super::{FlowEnds, IpSimulation};
use crate::ip::port::Aqm;
use crate::ip::scenario as ip_scenario;
use crate::scenario::ScenarioError;
use crate::session::Applied;
use serde_json::Value;

impl IpSimulation {
    /// Changes one parameter, by the `--set` path grammar, in `scenario` (the
    /// JSON this simulation was built from) and, where the model allows it, in
    /// the running simulation: BAT's and CLCC's knobs (`…aqm…`, keeping the
    /// transmit probabilities and the controller's state) and a UDP flow's
    /// rates (`flows.<id>.rate_mbps`, `alt_rate_mbps`) apply live; anything
    /// else asks for a restart. The edited scenario is validated whole first.
    pub fn set_param(
        &mut self,
        scenario: &mut Value,
        path: &str,
        raw: &str,
    ) -> Result<Applied, ScenarioError> {
        let mut edited = scenario.clone();
        crate::scenario::apply_set(&mut edited, path, raw)?;
        let parsed = ip_scenario::ip_scenario_from_value(&edited).map_err(|errors| {
            errors.into_iter().next().unwrap_or_else(|| ScenarioError::new(path, "invalid value"))
        })?;
        *scenario = edited;
        let fresh = IpSimulation::build(&parsed);
        let segments: Vec<&str> = path.split('.').collect();
        let applied = if segments.contains(&"aqm") && self.ports.len() == fresh.ports.len() {
            let mut ok = true;
            for (p, f) in self.ports.iter_mut().zip(&fresh.ports) {
                ok &= match (&mut p.aqm, &f.aqm) {
                    (Aqm::DropTail, Aqm::DropTail) => true,
                    (Aqm::Bat(a), Aqm::Bat(b)) => a.reconfigure_from(b),
                    _ => false,
                };
            }
            if ok {
                Applied::Live
            } else {
                Applied::Restart
            }
        } else if let ["flows", id, "rate_mbps" | "alt_rate_mbps"] = segments.as_slice() {
            for (mine, theirs) in self.flows.iter_mut().zip(&fresh.flows) {
                if mine.id == *id || mine.group == *id {
                    if let (FlowEnds::Udp { source, .. }, FlowEnds::Udp { source: new, .. }) =
                        (&mut mine.ends, &theirs.ends)
                    {
                        source.rate_bps = new.rate_bps;
                        source.alt_rate_bps = new.alt_rate_bps;
                    }
                }
            }
            Applied::Live
        } else {
            Applied::Restart
        };
        Ok(applied)
    }
}
