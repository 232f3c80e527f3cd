//! The TypeScript declarations of the types the page reads from the engine, generated from the
//! Rust structs (ts-rs) into `web/src/engine/generated/engine-types.ts`, so the two languages
//! have one source of truth. The test fails when the checked-in file differs from what the structs
//! generate; `UPDATE_TS_TYPES=1 cargo test --release -p sim-core --lib ts_types` rewrites it.

use crate::scenario::lecture::{Answer, Choice, Question, Stop, StopView};
use crate::scenario::registry::{Kind, ParamSpec, Scope};
use crate::scenario::ScenarioError;
use crate::session::layout::{
    Layout, LayoutBackground, LayoutFlow, LayoutLink, LayoutNode, LayoutPort, LayoutVc, ModelName,
    NodeKind, ScenarioInfo, VariantInfo,
};
use crate::sweep::SweepSummary;
use ts_rs::{Config, TS};

const FILE: &str =
    concat!(env!("CARGO_MANIFEST_DIR"), "/../../../web/src/engine/generated/engine-types.ts");

fn generated() -> String {
    let cfg = Config::default();
    let decls = [
        Scope::decl(&cfg),
        Kind::decl(&cfg),
        ParamSpec::decl(&cfg),
        ScenarioError::decl(&cfg),
        SweepSummary::decl(&cfg),
        ModelName::decl(&cfg),
        NodeKind::decl(&cfg),
        VariantInfo::decl(&cfg),
        StopView::decl(&cfg),
        Stop::decl(&cfg),
        Choice::decl(&cfg),
        Answer::decl(&cfg),
        Question::decl(&cfg),
        ScenarioInfo::decl(&cfg),
        LayoutNode::decl(&cfg),
        LayoutLink::decl(&cfg),
        LayoutVc::decl(&cfg),
        LayoutBackground::decl(&cfg),
        LayoutPort::decl(&cfg),
        LayoutFlow::decl(&cfg),
        Layout::decl(&cfg),
    ];
    let mut out = String::from(
        "// Generated from the engine's Rust types by ts-rs (engine-wasm/crates/sim-core/src/ts_types.rs).\n\
         // Do not edit: UPDATE_TS_TYPES=1 cargo test --release -p sim-core --lib ts_types\n",
    );
    for decl in decls {
        out.push_str("\nexport ");
        out.push_str(&decl);
        out.push('\n');
    }
    out
}

#[test]
fn the_checked_in_typescript_types_match_the_rust_structs() {
    let fresh = generated();
    if std::env::var_os("UPDATE_TS_TYPES").is_some() {
        std::fs::create_dir_all(std::path::Path::new(FILE).parent().expect("a folder"))
            .expect("create the folder");
        std::fs::write(FILE, &fresh).expect("write the generated types");
        return;
    }
    let current = std::fs::read_to_string(FILE).unwrap_or_default();
    assert!(
        current == fresh,
        "{FILE} is out of date with the Rust types; run \
         UPDATE_TS_TYPES=1 cargo test --release -p sim-core --lib ts_types"
    );
}
