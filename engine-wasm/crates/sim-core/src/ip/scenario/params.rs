//! The packet model's parameters — a flow's, a TCP connection's, a router
//! port's — and its registry: these, each AQM's (registered in [`AQMS`]) and
//! CLCC's (Pletka et al. §II-B). Links and the run use the shared entries.

use crate::ip::aqm::AQMS;
use crate::ip::clcc;
use crate::scenario::registry::{self, Kind::*, ParamSpec, Scope};
use serde_json::Value;

use Scope::{IpFlow as F, IpPort as P, Tcp as T};

/// Flow keys in the parameter registry (common to TCP and UDP, and UDP's own).
pub static FLOW_PARAMS: &[ParamSpec] = &[
    ParamSpec { key: "count", scope: F, label: "Count", unit: "flows", default: 1.0, min: 1.0, max: 2000.0, kind: Integer, live: false,
      doc: "How many identical flows this entry stands for (ids <id>-1 … <id>-N)." },
    ParamSpec { key: "packet_bytes", scope: F, label: "Packet size", unit: "bytes", default: 1500.0, min: 64.0, max: 9000.0, kind: Integer, live: false,
      doc: "Size of a data packet on the wire (Pletka et al. Table I: 1500 or 500 bytes)." },
    ParamSpec { key: "start_ms", scope: F, label: "Start", unit: "ms", default: 0.0, min: 0.0, max: 36_000_000.0, kind: Real, live: false,
      doc: "When the flow starts sending." },
    ParamSpec { key: "start_spread_ms", scope: F, label: "Start spread", unit: "ms", default: 0.0, min: 0.0, max: 36_000_000.0, kind: Real, live: false,
      doc: "Each flow of the entry starts at a random time within this long after start_ms (avoids synchronised slow starts)." },
    ParamSpec { key: "stop_ms", scope: F, label: "Stop", unit: "ms", default: f64::INFINITY, min: 0.0, max: 36_000_000.0, kind: Real, live: false,
      doc: "When the flow stops sending new data; absent means never." },
    ParamSpec { key: "rtt_ms", scope: F, label: "RTT", unit: "ms", default: f64::NAN, min: 0.0, max: 100_000.0, kind: Real, live: false,
      doc: "Round-trip propagation time of the flow; the part the links do not provide is a fixed delay before the receiver (DummyNet, Pletka et al. §III-C). Absent: the links' own." },
    ParamSpec { key: "rtt_min_ms", scope: F, label: "RTT min", unit: "ms", default: f64::NAN, min: 0.0, max: 100_000.0, kind: Real, live: false,
      doc: "Smallest RTT of a group of flows (Pletka et al. §V: 2 ms)." },
    ParamSpec { key: "rtt_max_ms", scope: F, label: "RTT max", unit: "ms", default: f64::NAN, min: 0.0, max: 100_000.0, kind: Real, live: false,
      doc: "Largest RTT of a group of flows (Pletka et al. §V: 200 ms)." },
    ParamSpec { key: "rate_mbps", scope: F, label: "UDP rate", unit: "Mbit/s", default: 10.0, min: 0.0, max: 100_000.0, kind: Real, live: true,
      doc: "Constant bit rate of a UDP flow (Pletka et al. §V: 90 Mbit/s)." },
    ParamSpec { key: "alt_rate_mbps", scope: F, label: "Alternate rate", unit: "Mbit/s", default: f64::NAN, min: 0.0, max: 100_000.0, kind: Real, live: true,
      doc: "If given, the UDP flow alternates between rate_mbps and this every alt_period_ms (Pletka et al. §V: 50 / 120 Mbit/s)." },
    ParamSpec { key: "alt_period_ms", scope: F, label: "Alternation period", unit: "ms", default: 5000.0, min: 1.0, max: 36_000_000.0, kind: Real, live: false,
      doc: "How long each rate of an alternating UDP flow lasts (Pletka et al. §V: 5 s)." },
];

/// TCP keys in the parameter registry.
pub static TCP_PARAMS: &[ParamSpec] = &[
    ParamSpec { key: "initial_cwnd", scope: T, label: "Initial window", unit: "segments", default: 2.0, min: 1.0, max: 10.0, kind: Integer, live: false,
      doc: "Congestion window at the start (RFC 5681 allows up to 2–4 segments; Linux 2.4 used 2)." },
    ParamSpec { key: "rwnd_pkts", scope: T, label: "Receiver window", unit: "segments", default: 64.0, min: 1.0, max: 65_535.0, kind: Integer, live: false,
      doc: "Advertised window: at most this many segments in flight (64 × 1500 bytes ≈ the 64 KB of a window without scaling)." },
    ParamSpec { key: "min_rto_ms", scope: T, label: "Minimum RTO", unit: "ms", default: 200.0, min: 1.0, max: 10_000.0, kind: Real, live: false,
      doc: "Floor of the retransmission timeout (RFC 6298 asks 1 s; Linux and ns use 200 ms)." },
    ParamSpec { key: "initial_rto_ms", scope: T, label: "Initial RTO", unit: "ms", default: 1000.0, min: 1.0, max: 60_000.0, kind: Real, live: false,
      doc: "Retransmission timeout before the first RTT sample (RFC 6298 §2.1: 1 s)." },
    ParamSpec { key: "max_rto_ms", scope: T, label: "Maximum RTO", unit: "ms", default: 60_000.0, min: 100.0, max: 600_000.0, kind: Real, live: false,
      doc: "Ceiling of the backed-off retransmission timeout (RFC 6298 §2.5)." },
    ParamSpec { key: "granularity_ms", scope: T, label: "Clock granularity", unit: "ms", default: 1.0, min: 0.001, max: 500.0, kind: Real, live: false,
      doc: "G in RTO = SRTT + max(G, 4·RTTVAR) (RFC 6298 §2)." },
    ParamSpec { key: "dupack_threshold", scope: T, label: "Dupack threshold", unit: "ACKs", default: 3.0, min: 1.0, max: 20.0, kind: Integer, live: false,
      doc: "Duplicate ACKs that trigger fast retransmit (RFC 5681: 3)." },
    ParamSpec { key: "delayed_ack", scope: T, label: "Delayed ACKs", unit: "", default: 0.0, min: 0.0, max: 1.0, kind: Bool, live: false,
      doc: "Receiver acknowledges every second segment or after delayed_ack_ms (RFC 5681 §4.2)." },
    ParamSpec { key: "delayed_ack_ms", scope: T, label: "Delayed-ACK timeout", unit: "ms", default: 100.0, min: 1.0, max: 500.0, kind: Real, live: false,
      doc: "Longest an ACK is held (RFC 5681: under 500 ms; ns uses 100 ms)." },
];

/// IP port keys in the parameter registry.
pub static PORT_PARAMS: &[ParamSpec] = &[
    ParamSpec { key: "buffer_pkts", scope: P, label: "Buffer", unit: "packets", default: 300.0, min: 1.0, max: 1_000_000.0, kind: Integer, live: false,
      doc: "Queue limit of the port; packets beyond it are lost and counted. Host ports default to 10,000." },
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
