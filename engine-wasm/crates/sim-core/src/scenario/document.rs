//! A whole scenario document, read the same way in either model: the guards
//! before the walk, the model's walk between the envelope's opening keys and
//! its closing ones (`view`, variants, things to try, claims, the lecture),
//! the whole-run ceilings and the cost, then each variant and thing to try
//! with its change applied.

use super::envelope::{
    finish, read_things_to_try, read_variants_checked, refuse_long_paths, refuse_oversized,
    validate_alternatives,
};
use super::reader::{Errors, Obj};
use super::{Limits, Meta, ScenarioError};
use serde_json::Value;

/// A model's scenario as the shared entry ([`read_checked`]) reads it: the
/// guards it applies before walking the document, its walk, and its
/// whole-run checks.
pub trait ModelScenario: Sized {
    /// The root's lists whose entries name a path of nodes: their paths'
    /// nodes together are capped at `limits.max_path_nodes`.
    const PATH_LISTS: &'static [&'static str];
    /// The root's lists with their ceilings in `limits`: a longer list is
    /// refused before anything walks or expands it.
    fn list_limits(limits: &Limits) -> Vec<(&'static str, usize)>;
    /// Any further refusal before the walk (what a list expands to).
    fn refuse_expanded(_value: &Value, _limits: &Limits, _errors: &mut Errors) {}
    /// Reads the whole document: the envelope and the model's own keys.
    fn read(value: &Value, errors: &mut Errors) -> Option<Self>;
    /// The whole-run ceilings: run length, loops, the transmissions the links allow.
    fn check_limits(&self, limits: &Limits, errors: &mut Errors);
    /// The run's estimated cost against `limits`, checked once the rest is sound.
    fn check_cost(&self, limits: &Limits, errors: &mut Errors);
}

/// Parses scenario text of model `S` and validates it within `limits` ([`read_checked`]).
pub fn parse_checked<S: ModelScenario>(
    text: &str,
    limits: &Limits,
) -> Result<S, Vec<ScenarioError>> {
    let value = super::strict_json::parse(text, limits.max_input_bytes)?;
    read_checked(&value, limits)
}

/// Validates a parsed scenario of model `S` within `limits`: the guards, the
/// walk, the whole-run ceilings and the cost; then, the base sound, each
/// variant and thing to try with its change applied (a broken base is
/// reported once, not once more under every variant; a mistake in a thing
/// to try itself does not stop the others being checked).
pub fn read_checked<S: ModelScenario>(
    value: &Value,
    limits: &Limits,
) -> Result<S, Vec<ScenarioError>> {
    let mut errors = Errors::new();
    refuse_oversized(value, &S::list_limits(limits), &mut errors);
    refuse_long_paths(value, S::PATH_LISTS, limits, &mut errors);
    S::refuse_expanded(value, limits, &mut errors);
    if !errors.is_empty() {
        return Err(errors);
    }
    let scenario = S::read(value, &mut errors);
    if let Some(s) = &scenario {
        s.check_limits(limits, &mut errors);
        if errors.is_empty() {
            s.check_cost(limits, &mut errors);
        }
        if errors.iter().all(|e| e.path.starts_with("things_to_try")) {
            let check = |v: &Value| read_checked::<S>(v, limits).map(|_| ());
            validate_alternatives(value, &mut errors, &check);
        }
    }
    finish(scenario, errors)
}

/// Reads the keys every scenario closes with, once the model has read its own:
/// `view` (the page's, ignored here), the variants and things to try (each
/// checked with its change applied once the whole base is sound, by
/// [`read_checked`]), the claims and the lecture's stops and questions; then
/// refuses any key left.
pub(crate) fn read_closing(value: &Value, mut root: Obj<'_>, meta: &mut Meta, errors: &mut Errors) {
    root.get("view");
    meta.variants = read_variants_checked(value, &mut root, errors, &|_| Ok(()));
    meta.things_to_try = read_things_to_try(value, &mut root, errors, &|_| Ok(()));
    super::claims::read_root_claims(&mut root, &meta.variants, errors);
    // A stop or window after the run's end is not an error here, as for claims: a run
    // shortened with `--until` or on the page simply never reaches it.
    (meta.stops, meta.questions) = super::lecture::read_lecture(value, &mut root, None, errors);
    root.finish(errors);
}
