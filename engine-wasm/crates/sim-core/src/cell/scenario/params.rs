//! The cell model's parameters — a VC's ABR parameters (Fahmy et al.
//! Table 1), its traffic, background sources and ports — and the cell
//! model's registry: these, the parameters every model shares (links, the
//! run) and each switch algorithm's, registered in `switch_alg`.

use crate::cell::switch_alg::ALGORITHMS;
use crate::scenario::registry::{self, Kind::*, ParamSpec, Scope, Scope::*, MAX_RATE_MBPS};
use serde_json::Value;

/// The cell model's own parameters.
pub static CELL_PARAMS: &[ParamSpec] = &[
    ParamSpec { key: "pcr_mbps", scope: Vc, label: "PCR", unit: "Mbit/s", default: 155.52, min: 0.001, max: MAX_RATE_MBPS, kind: Real, live: true,
      doc: "Peak cell rate: the fastest this source may ever send; its allowed rate (ACR) never goes above it. Lowered to the slowest link on the path (Fahmy et al., \"ABR Engineering\" §3.1–3.2, source rule 1)." },
    ParamSpec { key: "mcr_mbps", scope: Vc, label: "MCR", unit: "Mbit/s", default: 0.0, min: 0.0, max: MAX_RATE_MBPS, kind: Real, live: true,
      doc: "Minimum cell rate: a rate the network promises; the allowed rate (ACR) never falls below it (Fahmy et al., \"ABR Engineering\" §3.1, source rule 1)." },
    ParamSpec { key: "icr_mbps", scope: Vc, label: "ICR", unit: "Mbit/s", default: f64::NAN, min: 0.001, max: MAX_RATE_MBPS, kind: Real, live: false,
      doc: "Initial cell rate: how fast the source starts, before any feedback has come back. Defaults to PCR; the source starts at the smaller of ICR and TBE/FRTT (Fahmy et al., \"ABR Engineering\" §6.1.2, source rule 2)." },
    ParamSpec { key: "tcr_cps", scope: Vc, label: "TCR", unit: "cells/s", default: 10.0, min: 1.0, max: 1000.0, kind: Real, live: true,
      doc: "Tagged cell rate: the slow rate at which a source that may not send data still sends RM cells, to learn when it may start again; 10 cells/s in the standard (Fahmy et al., \"ABR Engineering\" §7)." },
    ParamSpec { key: "nrm", scope: Vc, label: "Nrm", unit: "cells", default: 32.0, min: 2.0, max: 256.0, kind: PowerOfTwo, live: true,
      doc: "How many cells the source sends per forward RM cell: smaller means feedback more often, at the cost of more control cells. A power of two, 2 to 256; 32 by default (Fahmy et al., \"ABR Engineering\" §4.1)." },
    ParamSpec { key: "mrm", scope: Vc, label: "Mrm", unit: "cells", default: 2.0, min: 1.0, max: 256.0, kind: Integer, live: true,
      doc: "The fewest other cells between two forward RM cells sent because Trm ran out; 2 in the standard (Fahmy et al., \"ABR Engineering\" §4.1)." },
    ParamSpec { key: "trm_ms", scope: Vc, label: "Trm", unit: "ms", default: 100.0, min: 0.78125, max: 100.0, kind: Real, live: true,
      doc: "Upper bound on the time between FRMs (rule 3). TM 4.0 allows 100·2^k ms, k = −7..0; Fahmy et al. §4.2.2's experiment also uses 1 and 10 ms, so any value in the range is accepted." },
    ParamSpec { key: "rif", scope: Vc, label: "RIF", unit: "", default: 1.0 / 16.0, min: 1.0 / 32768.0, max: 1.0, kind: PowerOfTwo, live: true,
      doc: "Rate increase factor: each backward RM cell may raise the rate by at most RIF × PCR, so a small RIF climbs slowly and carefully. A power of two, 1/32768 to 1; 1/16 in the paper's experiments (Fahmy et al., \"ABR Engineering\" §5.1)." },
    ParamSpec { key: "rdf", scope: Vc, label: "RDF", unit: "", default: 1.0 / 16.0, min: 1.0 / 32768.0, max: 1.0, kind: PowerOfTwo, live: true,
      doc: "Rate decrease factor: each backward RM cell that says congestion (CI = 1) cuts the rate by RDF × the rate. A power of two, 1/32768 to 1 (Fahmy et al., \"ABR Engineering\" §5.1)." },
    ParamSpec { key: "adtf_s", scope: Vc, label: "ADTF", unit: "s", default: 0.5, min: 0.01, max: 10.23, kind: Real, live: true,
      doc: "ACR decrease time factor: a source that has sent no forward RM cell for this long falls back to ICR before sending again (Fahmy et al., \"ABR Engineering\" §6.1.2)." },
    ParamSpec { key: "tbe_cells", scope: Vc, label: "TBE", unit: "cells", default: 16_777_215.0, min: 0.0, max: 16_777_215.0, kind: Integer, live: false,
      doc: "Transient buffer exposure: how many cells a new source may put into the network before its first feedback returns. It caps the starting rate at TBE/FRTT and sets CRM = ⌈TBE/Nrm⌉ (Fahmy et al., \"ABR Engineering\" §6.1.1)." },
    ParamSpec { key: "cdf", scope: Vc, label: "CDF", unit: "", default: 1.0 / 16.0, min: 1.0 / 64.0, max: 1.0, kind: ZeroOrPowerOfTwo, live: true,
      doc: "Cutoff decrease factor: how hard the source cuts its rate when backward RM cells stop coming back (source rule 6); 0 turns that off. Zero or a power of two, 1/64 to 1 (Fahmy et al., \"ABR Engineering\" §6.1.1)." },
    ParamSpec { key: "crm", scope: Vc, label: "CRM", unit: "FRMs", default: f64::NAN, min: 1.0, max: 16_777_215.0, kind: Integer, live: true,
      doc: "Missing-RM count of rule 6; absent means ⌈TBE/Nrm⌉ (Table 1). Set directly only to reproduce pre-TM 4.0 sources (Fahmy et al. §6.2.1 sets CRM = 32 with ICR = 140 Mbit/s)." },
    ParamSpec { key: "switched", scope: Vc, label: "Switched VC", unit: "", default: 0.0, min: 0.0, max: 1.0, kind: Bool, live: false,
      doc: "Set up by signalling when its traffic starts: the set-up crosses the path hop by hop, the connect comes back, and data waits for it (Ma & Ramakrishnan, \"Queue Management for Explicit Rate Based Congestion Control\" §3). The RATE and RM start-ups always are. Off: a permanent VC, in place before the run, as in the other papers' experiments." },
    ParamSpec { key: "cdf_every_crm", scope: Vc, label: "Rule 6 once per CRM", unit: "", default: 0.0, min: 0.0, max: 1.0, kind: Bool, live: true,
      doc: "Cut ACR by CDF once per CRM FRMs without a BRM, instead of at every FRM after the CRM-th as TM 4.0 says. Off by default; on reproduces Fahmy et al. Figure 10's source." },
    ParamSpec { key: "start_ms", scope: Traffic, label: "Start", unit: "ms", default: 0.0, min: 0.0, max: 36_000_000.0, kind: Real, live: false,
      doc: "When the source starts sending." },
    ParamSpec { key: "stop_ms", scope: Traffic, label: "Stop", unit: "ms", default: f64::INFINITY, min: 0.0, max: 36_000_000.0, kind: Real, live: false,
      doc: "When the source stops sending; absent means never." },
    ParamSpec { key: "rate_mbps", scope: Traffic, label: "Source bottleneck", unit: "Mbit/s", default: 10.0, min: 0.001, max: 10_000.0, kind: Real, live: false,
      doc: "Bottlenecked traffic: the application supplies at most this rate (Jain et al. ACR retention)." },
    ParamSpec { key: "for_ms", scope: Traffic, label: "Bottleneck lasts", unit: "ms", default: 100.0, min: 0.0, max: 36_000_000.0, kind: Real, live: false,
      doc: "Bottlenecked traffic: how long after start the cap holds." },
    ParamSpec { key: "on_ms", scope: Traffic, label: "On", unit: "ms", default: 10.0, min: 0.001, max: 36_000_000.0, kind: Real, live: false,
      doc: "On/off traffic: length of each burst." },
    ParamSpec { key: "off_ms", scope: Traffic, label: "Off", unit: "ms", default: 10.0, min: 0.0, max: 36_000_000.0, kind: Real, live: false,
      doc: "On/off traffic: silence between bursts." },
    ParamSpec { key: "request_cells", scope: Traffic, label: "Request", unit: "cells", default: 16.0, min: 1.0, max: 100_000_000.0, kind: Integer, live: false,
      doc: "Request–response traffic: cells in each request (Jain et al. bursty test: 16)." },
    ParamSpec { key: "response_cells", scope: Traffic, label: "Response", unit: "cells", default: 1024.0, min: 1.0, max: 100_000_000.0, kind: Integer, live: false,
      doc: "Request–response traffic: cells in each response (Jain et al.: 128, 1024 or 6144)." },
    ParamSpec { key: "rate_mbps", scope: Background, label: "Rate", unit: "Mbit/s", default: 10.0, min: 0.001, max: 10_000.0, kind: Real, live: false,
      doc: "CBR rate, or the VBR square wave's amplitude." },
    ParamSpec { key: "on_ms", scope: Background, label: "On", unit: "ms", default: f64::INFINITY, min: 0.001, max: 36_000_000.0, kind: Real, live: false,
      doc: "Square wave: how long the source sends; absent means always (constant CBR)." },
    ParamSpec { key: "off_ms", scope: Background, label: "Off", unit: "ms", default: 0.0, min: 0.0, max: 36_000_000.0, kind: Real, live: false,
      doc: "Square wave: how long it is silent." },
    ParamSpec { key: "phase_ms", scope: Background, label: "Phase", unit: "ms", default: 0.0, min: 0.0, max: 36_000_000.0, kind: Real, live: false,
      doc: "When the first pulse starts, after start_ms (Fahmy et al. §6.2.1: the VBR pulse starts at 2 ms)." },
    ParamSpec { key: "start_ms", scope: Background, label: "Start", unit: "ms", default: 0.0, min: 0.0, max: 36_000_000.0, kind: Real, live: false,
      doc: "When the background source starts." },
    ParamSpec { key: "stop_ms", scope: Background, label: "Stop", unit: "ms", default: f64::INFINITY, min: 0.0, max: 36_000_000.0, kind: Real, live: false,
      doc: "When it stops; absent means never." },
    ParamSpec { key: "buffer_cells", scope: Port, label: "Buffer", unit: "cells", default: 100_000.0, min: 1.0, max: 4_000_000.0, kind: Integer, live: false,
      doc: "Queue limit of the port; cells beyond it are lost and counted." },
    ParamSpec { key: "setup_ms", scope: Port, label: "Set-up processing", unit: "ms", default: 0.0, min: 0.0, max: 1000.0, kind: Real, live: false,
      doc: "Time the switch takes to process a connection set-up or connect message of a switched VC before it reaches this port. Ma & Ramakrishnan, \"Queue Management for Explicit Rate Based Congestion Control\" §3 give none, so 0: the message is delayed only by the links and by the cells queued ahead of it (setup_in_band)." },
    ParamSpec { key: "setup_in_band", scope: Port, label: "Set-up in band", unit: "", default: 1.0, min: 0.0, max: 1.0, kind: Bool, live: false,
      doc: "Whether a set-up or connect message waits behind the cells queued at this port, as a cell of its VC: the whole queue of a FIFO, one round of per-VC queues. Ma & Ramakrishnan, \"Queue Management for Explicit Rate Based Congestion Control\" treat the set-up as an RM cell (§3) and find the round trip seen at set-up shorter than with data flowing, especially with per-VC queues (§5.3). Off: signalling has its own channel and crosses by propagation alone." },
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
