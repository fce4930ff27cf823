//! Parameter specifications and validated parameter values.
//!
//! Every tunable number in sgviz (a target's correlation, a sampler's step size, …) is described
//! once by a [`ParamSpec`]. The CLI's `--set`, the UI's sliders and the URL state all go through
//! [`ParamValues::resolve`], so a value that is unknown, non-finite or out of range is refused with
//! one message that says what is allowed.

use serde::Serialize;

/// Description of one parameter: what the registry publishes to the CLI and the UI.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct ParamSpec {
    /// Stable machine name (`--set name=value`, URL key).
    pub name: &'static str,
    /// Human label for the UI.
    pub label: &'static str,
    /// The paper's symbol, e.g. "ε" or "α".
    pub symbol: &'static str,
    /// One-line tooltip.
    pub help: &'static str,
    pub min: f64,
    pub max: f64,
    pub default: f64,
    /// Slider moves in log space.
    pub log_scale: bool,
    /// Only whole numbers are allowed.
    pub integer: bool,
    /// Named choices for a categorical parameter; the value is the index into this list.
    pub choices: &'static [&'static str],
    /// Show this parameter only when another parameter of the same list has one of some values
    /// (e.g. the schedule's a, b, γ only with the polynomial schedule). None = always applies.
    pub visible_if: Option<ShowWhen>,
    /// One of the one or two parameters that matter most for this sampler or target: the page
    /// shows these beside the plot and the rest behind a disclosure.
    pub primary: bool,
    /// `min` itself is not allowed: the range is (min, max] (e.g. SGLD's schedule decay γ).
    pub min_exclusive: bool,
}

/// A condition on another parameter of the same list: its value is one of `values`.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct ShowWhen {
    pub param: &'static str,
    pub values: &'static [f64],
}

impl ShowWhen {
    /// Whether the condition holds for `values`.
    pub fn holds(&self, values: &ParamValues) -> bool {
        values.try_get(self.param).is_some_and(|v| self.values.contains(&v))
    }
}

impl ParamSpec {
    /// A continuous parameter on a linear scale.
    pub const fn linear(
        name: &'static str,
        label: &'static str,
        symbol: &'static str,
        help: &'static str,
        min: f64,
        max: f64,
        default: f64,
    ) -> Self {
        ParamSpec { name, label, symbol, help, min, max, default, log_scale: false, integer: false, choices: &[], visible_if: None, primary: false, min_exclusive: false }
    }

    /// A continuous, strictly positive parameter whose slider moves in log space.
    pub const fn log(
        name: &'static str,
        label: &'static str,
        symbol: &'static str,
        help: &'static str,
        min: f64,
        max: f64,
        default: f64,
    ) -> Self {
        ParamSpec { name, label, symbol, help, min, max, default, log_scale: true, integer: false, choices: &[], visible_if: None, primary: false, min_exclusive: false }
    }

    /// A whole-number parameter (log-scaled slider when `log_scale`).
    pub const fn integer(
        name: &'static str,
        label: &'static str,
        symbol: &'static str,
        help: &'static str,
        min: f64,
        max: f64,
        default: f64,
        log_scale: bool,
    ) -> Self {
        ParamSpec { name, label, symbol, help, min, max, default, log_scale, integer: true, choices: &[], visible_if: None, primary: false, min_exclusive: false }
    }

    /// A categorical parameter: the value is an index into `choices`.
    pub const fn choice(
        name: &'static str,
        label: &'static str,
        symbol: &'static str,
        help: &'static str,
        choices: &'static [&'static str],
        default: usize,
    ) -> Self {
        ParamSpec {
            name,
            label,
            symbol,
            help,
            min: 0.0,
            max: (choices.len() - 1) as f64,
            default: default as f64,
            log_scale: false,
            integer: true,
            choices,
            visible_if: None,
            primary: false,
            min_exclusive: false,
        }
    }

    /// Builder: show this parameter only when `param` (same list) takes one of `values`.
    pub const fn shown_when(mut self, param: &'static str, values: &'static [f64]) -> Self {
        self.visible_if = Some(ShowWhen { param, values });
        self
    }

    /// Builder: the range is (min, max], `min` excluded.
    pub const fn excluding_min(mut self) -> Self {
        self.min_exclusive = true;
        self
    }

    /// Builder: one of the parameters shown beside the plot.
    pub const fn primary(mut self) -> Self {
        self.primary = true;
        self
    }

    /// A one-line description of the allowed values, used in error messages.
    pub fn allowed(&self) -> String {
        if !self.choices.is_empty() {
            return format!("one of {}", self.choices.join(", "));
        }
        let kind = if self.integer { "a whole number" } else { "a number" };
        let open = if self.min_exclusive { "(" } else { "[" };
        format!("{kind} in {open}{}, {}]", self.min, self.max)
    }

    /// Parse a textual value (a number, or a choice name for categorical parameters) and check it.
    pub fn parse(&self, text: &str) -> Result<f64, String> {
        let text = text.trim();
        if let Some(index) = self.choices.iter().position(|c| c.eq_ignore_ascii_case(text)) {
            return Ok(index as f64);
        }
        let value: f64 = text
            .parse()
            .map_err(|_| format!("{}: '{}' is not a number; allowed: {}", self.name, text, self.allowed()))?;
        self.check(value)
    }

    /// Check a numeric value against the spec.
    pub fn check(&self, value: f64) -> Result<f64, String> {
        if !value.is_finite() {
            return Err(format!("{}: {} is not finite; allowed: {}", self.name, value, self.allowed()));
        }
        if value < self.min || value > self.max || (self.min_exclusive && value == self.min) {
            return Err(format!("{}: {} is out of range; allowed: {}", self.name, value, self.allowed()));
        }
        if self.integer && value.fract() != 0.0 {
            return Err(format!("{}: {} is not a whole number; allowed: {}", self.name, value, self.allowed()));
        }
        Ok(value)
    }
}

/// Concrete values for a list of specs: defaults overridden by validated user settings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ParamValues {
    entries: Vec<(&'static str, f64)>,
}

impl ParamValues {
    /// Every parameter at its default.
    pub fn defaults(specs: &[ParamSpec]) -> Self {
        ParamValues { entries: specs.iter().map(|s| (s.name, s.default)).collect() }
    }

    /// Defaults overridden by `overrides`; every override must name a spec and pass its check.
    pub fn resolve(specs: &[ParamSpec], overrides: &[(String, f64)]) -> Result<Self, String> {
        let mut values = Self::defaults(specs);
        for (name, value) in overrides {
            values.set(specs, name, *value)?;
        }
        Ok(values)
    }

    /// Set one value after checking it against its spec.
    pub fn set(&mut self, specs: &[ParamSpec], name: &str, value: f64) -> Result<(), String> {
        let spec = specs.iter().find(|s| s.name == name).ok_or_else(|| unknown_param(specs, name))?;
        let value = spec.check(value)?;
        let slot = self.entries.iter_mut().find(|(n, _)| *n == name).expect("entries mirror specs");
        slot.1 = value;
        Ok(())
    }

    /// The value of `name`. Panics on a name that is not in the specs: that is a programming error.
    pub fn get(&self, name: &str) -> f64 {
        self.entries
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| *v)
            .unwrap_or_else(|| panic!("parameter '{name}' is not declared in this spec list"))
    }

    /// The value of `name`, or None when the specs do not declare it.
    pub fn try_get(&self, name: &str) -> Option<f64> {
        self.entries.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
    }

    /// The value of `name` as a count or index.
    pub fn get_usize(&self, name: &str) -> usize {
        self.get(name).round().max(0.0) as usize
    }

    /// The value of `name` as a flag (nonzero = on).
    pub fn get_bool(&self, name: &str) -> bool {
        self.get(name) != 0.0
    }

    pub fn iter(&self) -> impl Iterator<Item = (&'static str, f64)> + '_ {
        self.entries.iter().copied()
    }

    /// The values as a JSON object `{name: value}`.
    pub fn to_json(&self) -> serde_json::Value {
        self.entries.iter().map(|(n, v)| (n.to_string(), serde_json::json!(v))).collect::<serde_json::Map<_, _>>().into()
    }
}

/// The message for a name that no spec declares.
/// A sampler's main knob (what the analysis charts vary and a divergence message names): its first
/// numeric parameter that is not the minibatch size.
pub fn main_knob(params: &'static [ParamSpec]) -> Option<&'static ParamSpec> {
    params.iter().find(|p| p.name != "batch_size" && p.choices.is_empty())
}

pub fn unknown_param(specs: &[ParamSpec], name: &str) -> String {
    let names: Vec<&str> = specs.iter().map(|s| s.name).collect();
    if names.is_empty() {
        format!("unknown parameter '{name}'; this combination has no parameters")
    } else {
        format!("unknown parameter '{name}'; allowed: {}", names.join(", "))
    }
}
