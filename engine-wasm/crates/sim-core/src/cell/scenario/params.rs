//! The cell model's parameters — a VC's ABR parameters (Fahmy et al.
//! Table 1), its traffic, background sources and ports — and the cell
//! model's registry: these, the parameters every model shares (links, the
//! run) and each switch algorithm's, registered in `switch_alg`.

use crate::cell::switch_alg::ALGORITHMS;
use crate::scenario::registry::{self, p, Kind::*, ParamSpec, Scope, Scope::*, MAX_RATE_MBPS};
use serde_json::Value;

/// The cell model's own parameters.
pub static CELL_PARAMS: &[ParamSpec] = &[
    p("pcr_mbps", Vc, "PCR", "Mbit/s", 155.52, 0.001, MAX_RATE_MBPS, Real, true,
      "Peak cell rate: the fastest this source may ever send; its allowed rate (ACR) never goes above it. Lowered to the slowest link on the path (Fahmy et al., \"ABR Engineering\" §3.1–3.2, source rule 1)."),
    p("mcr_mbps", Vc, "MCR", "Mbit/s", 0.0, 0.0, MAX_RATE_MBPS, Real, true,
      "Minimum cell rate: a rate the network promises; the allowed rate (ACR) never falls below it (Fahmy et al., \"ABR Engineering\" §3.1, source rule 1)."),
    p("icr_mbps", Vc, "ICR", "Mbit/s", f64::NAN, 0.001, MAX_RATE_MBPS, Real, false,
      "Initial cell rate: how fast the source starts, before any feedback has come back. Defaults to PCR; the source starts at the smaller of ICR and TBE/FRTT (Fahmy et al., \"ABR Engineering\" §6.1.2, source rule 2)."),
    p("tcr_cps", Vc, "TCR", "cells/s", 10.0, 1.0, 1000.0, Real, true,
      "Tagged cell rate: the slow rate at which a source that may not send data still sends RM cells, to learn when it may start again; 10 cells/s in the standard (Fahmy et al., \"ABR Engineering\" §7)."),
    p("nrm", Vc, "Nrm", "cells", 32.0, 2.0, 256.0, PowerOfTwo, true,
      "How many cells the source sends per forward RM cell: smaller means feedback more often, at the cost of more control cells. A power of two, 2 to 256; 32 by default (Fahmy et al., \"ABR Engineering\" §4.1)."),
    p("mrm", Vc, "Mrm", "cells", 2.0, 1.0, 256.0, Integer, true,
      "The fewest other cells between two forward RM cells sent because Trm ran out; 2 in the standard (Fahmy et al., \"ABR Engineering\" §4.1)."),
    p("trm_ms", Vc, "Trm", "ms", 100.0, 0.78125, 100.0, Real, true,
      "Upper bound on the time between FRMs (rule 3). TM 4.0 allows 100·2^k ms, k = −7..0; Fahmy et al. §4.2.2's experiment also uses 1 and 10 ms, so any value in the range is accepted."),
    p("rif", Vc, "RIF", "", 1.0 / 16.0, 1.0 / 32768.0, 1.0, PowerOfTwo, true,
      "Rate increase factor: each backward RM cell may raise the rate by at most RIF × PCR, so a small RIF climbs slowly and carefully. A power of two, 1/32768 to 1; 1/16 in the paper's experiments (Fahmy et al., \"ABR Engineering\" §5.1)."),
    p("rdf", Vc, "RDF", "", 1.0 / 16.0, 1.0 / 32768.0, 1.0, PowerOfTwo, true,
      "Rate decrease factor: each backward RM cell that says congestion (CI = 1) cuts the rate by RDF × the rate. A power of two, 1/32768 to 1 (Fahmy et al., \"ABR Engineering\" §5.1)."),
    p("adtf_s", Vc, "ADTF", "s", 0.5, 0.01, 10.23, Real, true,
      "ACR decrease time factor: a source that has sent no forward RM cell for this long falls back to ICR before sending again (Fahmy et al., \"ABR Engineering\" §6.1.2)."),
    p("tbe_cells", Vc, "TBE", "cells", 16_777_215.0, 0.0, 16_777_215.0, Integer, false,
      "Transient buffer exposure: how many cells a new source may put into the network before its first feedback returns. It caps the starting rate at TBE/FRTT and sets CRM = ⌈TBE/Nrm⌉ (Fahmy et al., \"ABR Engineering\" §6.1.1)."),
    p("cdf", Vc, "CDF", "", 1.0 / 16.0, 1.0 / 64.0, 1.0, ZeroOrPowerOfTwo, true,
      "Cutoff decrease factor: how hard the source cuts its rate when backward RM cells stop coming back (source rule 6); 0 turns that off. Zero or a power of two, 1/64 to 1 (Fahmy et al., \"ABR Engineering\" §6.1.1)."),
    p("crm", Vc, "CRM", "FRMs", f64::NAN, 1.0, 16_777_215.0, Integer, true,
      "Missing-RM count of rule 6; absent means ⌈TBE/Nrm⌉ (Table 1). Set directly only to reproduce pre-TM 4.0 sources (Fahmy et al. §6.2.1 sets CRM = 32 with ICR = 140 Mbit/s)."),
    p("switched", Vc, "Switched VC", "", 0.0, 0.0, 1.0, Bool, false,
      "Set up by signalling when its traffic starts: the set-up crosses the path hop by hop, the connect comes back, and data waits for it (Ma & Ramakrishnan, \"Queue Management for Explicit Rate Based Congestion Control\" §3). The RATE and RM start-ups always are. Off: a permanent VC, in place before the run, as in the other papers' experiments."),
    p("cdf_every_crm", Vc, "Rule 6 once per CRM", "", 0.0, 0.0, 1.0, Bool, true,
      "Cut ACR by CDF once per CRM FRMs without a BRM, instead of at every FRM after the CRM-th as TM 4.0 says. Off by default; on reproduces Fahmy et al. Figure 10's source."),
    p("start_ms", Traffic, "Start", "ms", 0.0, 0.0, 36_000_000.0, Real, false,
      "When the source starts sending."),
    p("stop_ms", Traffic, "Stop", "ms", f64::INFINITY, 0.0, 36_000_000.0, Real, false,
      "When the source stops sending; absent means never."),
    p("rate_mbps", Traffic, "Source bottleneck", "Mbit/s", 10.0, 0.001, 10_000.0, Real, false,
      "Bottlenecked traffic: the application supplies at most this rate (Jain et al. ACR retention)."),
    p("for_ms", Traffic, "Bottleneck lasts", "ms", 100.0, 0.0, 36_000_000.0, Real, false,
      "Bottlenecked traffic: how long after start the cap holds."),
    p("on_ms", Traffic, "On", "ms", 10.0, 0.001, 36_000_000.0, Real, false,
      "On/off traffic: length of each burst."),
    p("off_ms", Traffic, "Off", "ms", 10.0, 0.0, 36_000_000.0, Real, false,
      "On/off traffic: silence between bursts."),
    p("request_cells", Traffic, "Request", "cells", 16.0, 1.0, 100_000_000.0, Integer, false,
      "Request–response traffic: cells in each request (Jain et al. bursty test: 16)."),
    p("response_cells", Traffic, "Response", "cells", 1024.0, 1.0, 100_000_000.0, Integer, false,
      "Request–response traffic: cells in each response (Jain et al.: 128, 1024 or 6144)."),
    p("rate_mbps", Background, "Rate", "Mbit/s", 10.0, 0.001, 10_000.0, Real, false,
      "CBR rate, or the VBR square wave's amplitude."),
    p("on_ms", Background, "On", "ms", f64::INFINITY, 0.001, 36_000_000.0, Real, false,
      "Square wave: how long the source sends; absent means always (constant CBR)."),
    p("off_ms", Background, "Off", "ms", 0.0, 0.0, 36_000_000.0, Real, false,
      "Square wave: how long it is silent."),
    p("phase_ms", Background, "Phase", "ms", 0.0, 0.0, 36_000_000.0, Real, false,
      "When the first pulse starts, after start_ms (Fahmy et al. §6.2.1: the VBR pulse starts at 2 ms)."),
    p("start_ms", Background, "Start", "ms", 0.0, 0.0, 36_000_000.0, Real, false,
      "When the background source starts."),
    p("stop_ms", Background, "Stop", "ms", f64::INFINITY, 0.0, 36_000_000.0, Real, false,
      "When it stops; absent means never."),
    p("buffer_cells", Port, "Buffer", "cells", 100_000.0, 1.0, 4_000_000.0, Integer, false,
      "Queue limit of the port; cells beyond it are lost and counted."),
    p("setup_ms", Port, "Set-up processing", "ms", 1.0, 0.0, 1000.0, Real, false,
      "Time the switch takes to process a connection set-up or connect message of a switched VC before sending it on through this port. Ma & Ramakrishnan, \"Queue Management for Explicit Rate Based Congestion Control\" §3 give none; with 1 ms the RM start-up's early warning brings their two-switch queue to the paper's 'nearly 4K' cells. Host ports: 0 unless told."),
];

/// Every parameter of the cell model, in the order the page lists them: its
/// own, the shared ones, then each switch algorithm's.
pub fn all() -> impl Iterator<Item = &'static ParamSpec> {
    CELL_PARAMS
        .iter()
        .chain(registry::SHARED_PARAMS)
        .chain(ALGORITHMS.iter().flat_map(|a| a.params.iter()))
}

/// The spec of `key` in `scope`.
pub fn spec(scope: Scope, key: &str) -> &'static ParamSpec {
    registry::find(all(), scope, key)
}

/// The cell model's registry as JSON, for the UI (the packet model's is
/// `crate::ip::scenario::params::registry_json`).
pub fn registry_json() -> Value {
    Value::Array(all().map(ParamSpec::to_json).collect())
}
