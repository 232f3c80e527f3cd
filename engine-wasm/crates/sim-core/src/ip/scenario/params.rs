//! The packet model's parameters — a flow's, a TCP connection's, a router
//! port's — and its registry: these, each AQM's (registered in [`AQMS`]) and
//! CLCC's (Pletka et al. §II-B). Links and the run use the shared entries.

use crate::ip::aqm::AQMS;
use crate::ip::clcc;
use crate::scenario::registry::{self, p, Kind::*, ParamSpec, Scope};
use serde_json::Value;

use Scope::{IpFlow as F, IpPort as P, Tcp as T};

/// Flow keys in the parameter registry (common to TCP and UDP, and UDP's own).
pub static FLOW_PARAMS: &[ParamSpec] = &[
    p("count", F, "Count", "flows", 1.0, 1.0, 2000.0, Integer, false,
      "How many identical flows this entry stands for (ids <id>-1 … <id>-N)."),
    p("packet_bytes", F, "Packet size", "bytes", 1500.0, 64.0, 9000.0, Integer, false,
      "Size of a data packet on the wire (Pletka et al. Table I: 1500 or 500 bytes)."),
    p("start_ms", F, "Start", "ms", 0.0, 0.0, 36_000_000.0, Real, false,
      "When the flow starts sending."),
    p("start_spread_ms", F, "Start spread", "ms", 0.0, 0.0, 36_000_000.0, Real, false,
      "Each flow of the entry starts at a random time within this long after start_ms (avoids synchronised slow starts)."),
    p("stop_ms", F, "Stop", "ms", f64::INFINITY, 0.0, 36_000_000.0, Real, false,
      "When the flow stops sending new data; absent means never."),
    p("rtt_ms", F, "RTT", "ms", f64::NAN, 0.0, 100_000.0, Real, false,
      "Round-trip propagation time of the flow; the part the links do not provide is a fixed delay before the receiver (DummyNet, Pletka et al. §III-C). Absent: the links' own."),
    p("rtt_min_ms", F, "RTT min", "ms", f64::NAN, 0.0, 100_000.0, Real, false,
      "Smallest RTT of a group of flows (Pletka et al. §V: 2 ms)."),
    p("rtt_max_ms", F, "RTT max", "ms", f64::NAN, 0.0, 100_000.0, Real, false,
      "Largest RTT of a group of flows (Pletka et al. §V: 200 ms)."),
    p("rate_mbps", F, "UDP rate", "Mbit/s", 10.0, 0.0, 100_000.0, Real, true,
      "Constant bit rate of a UDP flow (Pletka et al. §V: 90 Mbit/s)."),
    p("alt_rate_mbps", F, "Alternate rate", "Mbit/s", f64::NAN, 0.0, 100_000.0, Real, true,
      "If given, the UDP flow alternates between rate_mbps and this every alt_period_ms (Pletka et al. §V: 50 / 120 Mbit/s)."),
    p("alt_period_ms", F, "Alternation period", "ms", 5000.0, 1.0, 36_000_000.0, Real, false,
      "How long each rate of an alternating UDP flow lasts (Pletka et al. §V: 5 s)."),
];

/// TCP keys in the parameter registry.
pub static TCP_PARAMS: &[ParamSpec] = &[
    p("initial_cwnd", T, "Initial window", "segments", 2.0, 1.0, 10.0, Integer, false,
      "Congestion window at the start (RFC 5681 allows up to 2–4 segments; Linux 2.4 used 2)."),
    p("rwnd_pkts", T, "Receiver window", "segments", 64.0, 1.0, 65_535.0, Integer, false,
      "Advertised window: at most this many segments in flight (64 × 1500 bytes ≈ the 64 KB of a window without scaling)."),
    p("min_rto_ms", T, "Minimum RTO", "ms", 200.0, 1.0, 10_000.0, Real, false,
      "Floor of the retransmission timeout (RFC 6298 asks 1 s; Linux and ns use 200 ms)."),
    p("initial_rto_ms", T, "Initial RTO", "ms", 1000.0, 1.0, 60_000.0, Real, false,
      "Retransmission timeout before the first RTT sample (RFC 6298 §2.1: 1 s)."),
    p("max_rto_ms", T, "Maximum RTO", "ms", 60_000.0, 100.0, 600_000.0, Real, false,
      "Ceiling of the backed-off retransmission timeout (RFC 6298 §2.5)."),
    p("granularity_ms", T, "Clock granularity", "ms", 1.0, 0.001, 500.0, Real, false,
      "G in RTO = SRTT + max(G, 4·RTTVAR) (RFC 6298 §2)."),
    p("dupack_threshold", T, "Dupack threshold", "ACKs", 3.0, 1.0, 20.0, Integer, false,
      "Duplicate ACKs that trigger fast retransmit (RFC 5681: 3)."),
    p("delayed_ack", T, "Delayed ACKs", "", 0.0, 0.0, 1.0, Bool, false,
      "Receiver acknowledges every second segment or after delayed_ack_ms (RFC 5681 §4.2)."),
    p("delayed_ack_ms", T, "Delayed-ACK timeout", "ms", 100.0, 1.0, 500.0, Real, false,
      "Longest an ACK is held (RFC 5681: under 500 ms; ns uses 100 ms)."),
];

/// IP port keys in the parameter registry.
pub static PORT_PARAMS: &[ParamSpec] = &[
    p("buffer_pkts", P, "Buffer", "packets", 300.0, 1.0, 1_000_000.0, Integer, false,
      "Queue limit of the port; packets beyond it are lost and counted. Host ports default to 10,000."),
];

/// The packet model's own parameters, in the order the page lists them.
pub fn all() -> impl Iterator<Item = &'static ParamSpec> {
    FLOW_PARAMS
        .iter()
        .chain(TCP_PARAMS)
        .chain(PORT_PARAMS)
        .chain(AQMS.iter().flat_map(|a| a.params.iter()))
        .chain(clcc::PARAMS)
}

/// The spec of `key` in `scope` (the packet model's, or a shared one).
pub fn spec(scope: Scope, key: &str) -> &'static ParamSpec {
    registry::find(all().chain(registry::SHARED_PARAMS), scope, key)
}

/// The packet model's registry entries as JSON (scopes `ip_flow`, `tcp`,
/// `ip_port`, `bat`, `clcc`; links and the run share the cell model's).
pub fn registry_json() -> Value {
    Value::Array(all().map(ParamSpec::to_json).collect())
}
