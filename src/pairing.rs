//! What the page and the CLI say about a sampler on a target beyond its derived defaults: the
//! pairing warning, built from the target's curvature summary and the sampler's own reason. It
//! sits above the samplers (it asks SGLD for its warning), so that [`crate::defaults`], whose
//! criteria the samplers use, never imports a sampler.

use crate::curvature::Curvature;
use crate::model::Model;

/// What the page should say about a sampler on a target beyond its derived defaults: why the
/// defaults cannot meet the criteria of [`crate::defaults`], when no setting of the sampler can (the reason is the
/// target's: separated modes for every sampler; for SGLD e.g. Neal's funnel; for OSGFS a curvature
/// spread its averaged preconditioner runs on but cannot mix within the claim). None when the
/// defaults meet them.
pub fn pairing_warning(sampler: &str, model: &dyn Model) -> Option<String> {
    pairing(sampler, model).text()
}

/// The pairing warning's two parts: the target's (separated modes, any sampler) and the sampler's
/// own law's (SGLD's, OSGFS's, lipSBPS's bound law). A chain whose own law fires holds back §8's
/// measured remedy (src/chain/promise_count.rs); the modes' warning alone does not.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Pairing {
    pub modes: Option<String>,
    pub own: Option<String>,
}

impl Pairing {
    /// The warning as the page shows it: the target's part, then the sampler's.
    pub fn text(&self) -> Option<String> {
        let warnings: Vec<&str> = [&self.modes, &self.own].into_iter().flatten().map(String::as_str).collect();
        (!warnings.is_empty()).then(|| warnings.join(" "))
    }
}

/// [`Pairing`] of `sampler` on `model` (both parts None where no curvature summary exists).
pub fn pairing(sampler: &str, model: &dyn Model) -> Pairing {
    let Some(curvature) = Curvature::of(model) else { return Pairing::default() };
    let own = match sampler {
        "sgld" => crate::sampler::sgld::warning(&curvature),
        "osgfs" => crate::sampler::osgfs::warning(&curvature),
        "lipsbps" => crate::bound_law::warning(model),
        _ => None,
    };
    Pairing { modes: modes_warning(&curvature), own }
}

/// Every sampler's warning on a target with separated modes. It says what can happen, not what
/// does: SBPS crosses both presets' valleys (sbps-hyperbola, sbps-multimodal) while SGLD beside it
/// stays in one mode, and the box beside SBPS said "a chain stays in the mode it starts in"
/// (issue 26, a false sentence on screen).
fn modes_warning(c: &Curvature) -> Option<String> {
    if c.modes.len() < 2 {
        return None;
    }
    let masses: Vec<String> = c.modes.iter().map(|m| format!("{:.0} %", 100.0 * m.mass)).collect();
    Some(format!(
        "This posterior has {} modes (holding {} of the mass) separated by valleys where the density falls more than {} nats below its peak: a chain can stay in the mode it starts in for far longer than the page runs, and its mean and covariance then describe that mode, not the whole posterior; the density image shows whether its samples reach every mode.",
        c.modes.len(),
        masses.join(", "),
        crate::curvature::MODE_VALLEY
    ))
}
