//! The worked example of "Add a switch algorithm" in docs/architecture.md,
//! compiled for the unit tests only: a switch that offers every VC half the
//! link in the explicit rate of the backward RM cells it passes. It teaches
//! nothing about ABR — it has no knobs, measures nothing and divides nothing —
//! and exists to prove that the recipe's steps are all a new algorithm needs:
//! this file, one `mod` line and one registration line in `switch_alg/mod.rs`.
//! The tests that build a scenario with it are in `cell/tests.rs`.

use super::{Algorithm, AlgorithmConfig, PortView, SwitchAlgorithm};
use crate::cell::atm::Cell;
use crate::scenario::reader::{Errors, Obj};
use crate::scenario::registry::{ParamSpec, Registration};

/// The configuration a scenario gives: `{"kind": "half_rate"}`, nothing more.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct HalfRateConfig;

impl Registration for HalfRateConfig {
    type Config = AlgorithmConfig;
    const KINDS: &'static [&'static str] = &["half_rate"];
    const PARAMS: &'static [ParamSpec] = &[];
    fn read(_kind: &str, _obj: &mut Obj<'_>, _errors: &mut Errors) -> AlgorithmConfig {
        AlgorithmConfig::HalfRate(HalfRateConfig)
    }
}

/// The algorithm at one output port.
#[derive(Clone, Debug, Default)]
pub struct HalfRate;

impl Algorithm for HalfRate {
    type Config = HalfRateConfig;
    fn build(_config: &HalfRateConfig) -> HalfRate {
        HalfRate
    }
    fn name(&self) -> &'static str {
        "half_rate"
    }
    fn reconfigure(&mut self, _other: &HalfRate) {}
}

impl SwitchAlgorithm for HalfRate {
    fn on_backward_rm(&mut self, port: &PortView, cell: &mut Cell) {
        cell.rm.er = cell.rm.er.min(port.link_cps / 2.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cell::atm::CellKind;
    use crate::cell::switch_alg::{algorithm_kinds, AnyAlgorithm};
    use crate::scenario::reader::Errors;
    use crate::time::SimTime;
    use serde_json::json;

    #[test]
    fn the_recipe_s_algorithm_is_in_the_registry_and_read_from_a_scenario() {
        assert!(algorithm_kinds().contains(&"half_rate"), "{:?}", algorithm_kinds());
        let mut errors = Errors::default();
        let config = AlgorithmConfig::read(&json!({"kind": "half_rate"}), "algorithm", &mut errors);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(config, Some(AlgorithmConfig::HalfRate(HalfRateConfig)));
        let mut errors = Errors::default();
        AlgorithmConfig::read(&json!({"kind": "half_rate", "x": 1}), "algorithm", &mut errors);
        assert!(!errors.is_empty(), "an unknown key is refused as for every algorithm");
    }

    #[test]
    fn a_port_built_from_it_dispatches_its_hook() {
        let mut alg = AlgorithmConfig::HalfRate(HalfRateConfig).build();
        assert!(matches!(alg, AnyAlgorithm::HalfRate(_)));
        assert_eq!(alg.name(), "half_rate");
        let view =
            PortView { now: SimTime::ZERO, link_cps: 1000.0, queue_len: 0, buffer_cells: 10 };
        let mut brm = Cell::data(0);
        brm.kind = CellKind::Brm;
        brm.rm.er = 900.0;
        alg.on_backward_rm(&view, &mut brm);
        assert_eq!(brm.rm.er, 500.0);
    }
}
