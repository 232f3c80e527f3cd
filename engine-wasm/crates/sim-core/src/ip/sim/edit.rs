//! What the packet model decides in a parameter change (`set_param`, run by
//! [`crate::session::edit`]): BAT's and CLCC's knobs (`…aqm…`, keeping the
//! transmit probabilities and the controller's state) and a UDP flow's rates
//! (`flows.<id>.rate_mbps`, `alt_rate_mbps`) apply live; anything else asks
//! for a restart. The edited scenario is validated whole.

use super::{FlowEnds, IpSimulation};
use crate::ip::port::Aqm;
use crate::ip::scenario::{self as ip_scenario, IpScenario};
use crate::scenario::ScenarioError;
use crate::session::edit::Editable;
use crate::session::Applied;
use serde_json::Value;

impl Editable for IpSimulation {
    type Checked = IpScenario;
    const READS_MODEL_KEY: bool = true;

    fn check(&self, edited: &Value, _segments: &[&str]) -> Result<IpScenario, Vec<ScenarioError>> {
        ip_scenario::ip_scenario_from_value(edited)
    }

    fn take(&mut self, segments: &[&str], parsed: IpScenario) -> Applied {
        let fresh = IpSimulation::build(&parsed);
        if segments.contains(&"aqm") && self.ports.len() == fresh.ports.len() {
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
        } else if let ["flows", id, "rate_mbps" | "alt_rate_mbps"] = segments {
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
        }
    }
}
