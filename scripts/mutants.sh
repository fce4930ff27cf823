#!/usr/bin/env bash
# `make mutants` (issue 15, MUTANTS.md): first the known bugs (tests/mutations: five of issue 15, one of issue 22) must be caught
# (scripts/check-known-bugs.sh), then cargo-mutants mutates src/sampler, src/sgais, src/model,
# src/chain/ and src/diagnostics.rs (.cargo/mutants.toml: globs, exclusions, the test set) and
# runs the fast test set against each mutant, one at a time, niced (the machine is shared). About
# 5,300 mutants at ≈ 1–3 min each: a full run takes days on 2 cores, so run it in shards.
# Output: target/mutants.out/ (caught.txt, missed.txt, …).
#   MUTANTS_SHARD=k/n    run shard k of n only (e.g. 0/8), to spread the run over several sittings
#   MUTANTS_RE=REGEX     only mutants whose name (path:line: change) matches, e.g. '^src/(diagnostics|sgais/annealing)\.rs'
#   MUTANTS_SKIP_KNOWN=1 skip the known-bug check
#   MUTANTS_ARGS="…"     more cargo-mutants arguments (e.g. "--baseline skip --timeout 900")
#   MUTANTS_SET=priority the issue's priority set only (MUTANTS.md, "Priority set"): the samplers'
#                        update and noise formulas, the estimators and the SGAIS weights, ≈ 190
#                        mutants, tested with nextest against the tests that pin those formulas
#                        (≈ 10–25 s per mutant on 2 cores: about an hour)
#   MUTANTS_SET=screen   issue 23's second to sixth passes (MUTANTS.md, "The numbers the page shows"): per file, the
#                        functions whose numbers reach the screen against the fast tests that pin
#                        them (new files tests/sampler_readouts.rs, sgais_summary.rs, error_split.rs),
#                        in place (the warm build is reused: ≈ 10 s per mutant idle, ≈ 60 s at load 15;
#                        the sources are mutated in this tree meanwhile: do not edit or build here)
#   MUTANTS_SET=priority-whole  the priority set's whole-function replacements (tenth pass)
#   MUTANTS_SET=NAME     one group of the screen set only (NAME as in `group NAME` below, e.g.
#                        analysis, the sixth pass's group)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-mutants.sh
if [ -z "${MUTANTS_SKIP_KNOWN:-}" ]; then
  echo "== the known bugs (tests/mutations)"
  scripts/check-known-bugs.sh
fi
if [ "${MUTANTS_SET:-}" = priority ] || [ "${MUTANTS_SET:-}" = priority-whole ]; then
  # The priority set's functions, as cargo-mutants prints them ("… in Sgld::update"); field deletions
  # are left out (they ignore --re in cargo-mutants 27 and are struct-literal plumbing, not formulas).
  names='(Sgld::update|Sgfs::(full_update|diagonal_update|gamma)|<impl Sampler for Sghmc>::step|Sghmc::injected_noise_variance|Osgfs::choose_k|batch_means_standard_error|relative_errors|RunningMoments::(merge|cov)|autocorrelation|next_increment|ess_of_log_weights|incremental_ess|log_mean_exp)'
  if [ "$MUTANTS_SET" = priority ]; then
    re="in $names\$"; out=target/mutants-priority; what="the priority set"
  else
    # Issue 23, tenth pass: the whole-function replacements ("replace NAME -> T with …"), which the
    # priority regex `in (…)$` never selected; same files and tests.
    re="replace $names "; out=target/mutants-priority-whole; what="the priority set's whole-function replacements"
  fi
  files=()
  for f in src/sgais/annealing.rs src/diagnostics.rs src/sampler/sgld/mod.rs src/sampler/sgfs.rs src/sampler/sghmc.rs src/sampler/osgfs.rs; do
    files+=(-f "$f")
  done
  echo "== cargo mutants: $what"
  exec nice -n 10 cargo mutants --no-config --no-shuffle "${files[@]}" --re "$re" --exclude-re 'delete field' \
    --test-tool nextest --test-workspace=true --timeout 180 --build-timeout 900 -o "$out" \
    -- --test all -E '(test(/^unit::/) or test(/^(oracles|gradient_samplers|gradient_samplers_osgfs_mala|sgld_bias|sgais|step_parts)::/)) and not test(breast_cancer)'
fi
if [ -n "${MUTANTS_SET:-}" ]; then
  # group NAME REGEX TESTS… -- FILES…: one cargo-mutants run per group; outputs in target/mutants-screen/NAME.
  # A test named `lib` is the library's unit tests, which are the `unit::` modules of tests/all.rs
  # since issue 23's sixth round (the library has no test harness); `filter=EXPR` narrows them with a
  # nextest filterset; any other name is a file of tests/all.rs (one binary: FILE::TEST).
  group() {
    local name=$1 re=$2 cargs=() files=() kinds=() filter=''
    shift 2
    [ "$MUTANTS_SET" = screen ] || [ "$MUTANTS_SET" = "$name" ] || return 0
    while [ "$1" != -- ]; do
      case $1 in
        lib) kinds+=('test(/^unit::/)') ;;
        filter=*) filter=${1#filter=} ;;
        *) kinds+=("test(/^$1::/)") ;;
      esac
      shift
    done
    shift
    cargs+=(-C --test=all)
    local fs
    fs=$(IFS='|'; echo "${kinds[*]}" | sed 's/|/ or /g')
    [ -n "$filter" ] && fs="($fs) and ($filter)"
    cargs+=(-C "--filterset=$fs")
    for f in "$@"; do files+=(-f "$f"); done
    echo "== cargo mutants: $name"
    mkdir -p target/mutants-screen # cargo-mutants creates the output directory, not its parent
    nice -n 10 cargo mutants --no-config --in-place --no-shuffle "${files[@]}" --re "$re" --test-tool nextest --test-workspace=true \
      --timeout 240 --build-timeout 900 -o "target/mutants-screen/$name" "${cargs[@]}" || true
  }
  group readouts '(Mala::acceptance_rate|Hmc::acceptance_rate|<impl Sampler for (Mala|Hmc|Bps)>::diagnostics|Bps::advance)' \
    sampler_readouts -- src/sampler/mala.rs src/sampler/hmc.rs src/sampler/bps.rs
  group sgais-summary '^src/sgais/replicas\.rs' sgais_summary -- src/sgais/replicas.rs
  # Issue 23, seventh pass: the whole of error_split.rs (the lib's error_split tests and tests/error_split.rs).
  group error-split '(measured_error|relative_bias|asymptotic_covariance_variance|series_by_kronecker|series_by_lags|PredictedError)' lib error_split 'filter=test(/^(unit::)?error_split::/)' -- src/error_split.rs
  # Issue 23, third pass (MUTANTS.md): the runaway detector, the derived defaults' helpers, SGHMC's
  # periodic law.
  group runaway '.' lib runaway 'filter=test(runaway)' -- src/runaway.rs src/lab/runaway.rs
  group defaults '.' lib 'filter=test(defaults::) and not test(derived_values_are_finite)' -- src/defaults.rs
  group law-resampling 'in sghmc_with_resampling' lib 'filter=test(law::)' -- src/law.rs
  # Issue 23, fourth pass: the rest of the predicted law (law_tests.rs, law_helper_tests.rs) and
  # the SGAIS number format.
  group law '(GaussianSummary::|linearisable|symmetric|empirical_fisher|fisher_is_constant|Law::|predicted_law|law_on_summary|linear_chain|exact_sampler_law|sgld_chain|rmsprop_preconditioner|sghmc_chain|sgfs_chain|osgfs_chain|clip_negative)' \
    lib 'filter=test(law::)' -- src/law.rs
  group format '.' lib 'filter=test(sgais::format::)' -- src/sgais/format.rs
  # Issue 23, fifth pass: the chart data of the bias–mixing sweep and the phase picture
  # (src/sweep_values.rs, src/phase_values.rs).
  group sweep '.' lib 'filter=test(sweep::values::)' -- src/sweep.rs
  group phase '.' lib 'filter=test(phase::)' -- src/phase.rs
  # Issue 23, sixth pass: the analysis wiring (which chart for which sampler, the schedule, the
  # rejection budget and its random stream): the lib's analysis tests (without the 80 s schedule
  # sweep, whose wiring tests/analysis_wiring.rs pins at a twentieth of the cost) and
  # tests/analysis_wiring.rs.
  # Issue 23, ninth pass (MUTANTS.md): SGLD's linear chain (the predicted ellipse), the promise's
  # verdict and its repair of derived defaults, the grid truth's edge, trapezoid and h/2h helpers.
  group law-sgld '(in |replace )sgld_chain( |$)' lib 'filter=test(law::)' -- src/law.rs
  group promise-verdict '(in |replace )(Prediction::failure|keep_promise_at_defaults)( |$)' lib promise_thresholds promise_defaults sgfs_alpha sgld_derived_step 'filter=not test(/^unit::/) or test(/^unit::promise::/)' -- src/promise.rs
  group curvature-noise '(in |replace )Curvature::(gradient_noise|condition_number|lambda_min)( |$)' lib curvature_by_hand 'filter=not test(/^unit::/) or test(/^unit::curvature::/)' -- src/curvature.rs
  group truth-grid '(in |replace )(on_edge|trapezoid|max_abs_difference|marginal)( |$)' truth_grid_by_hand targets 'filter=not test(/^targets::/) or test(/^targets::(grid|truth_for|funnel)/)' -- src/truth.rs
  # Issue 23, tenth pass (MUTANTS.md): the predicted E2 of the curvature scan, the promise's error
  # law and its remedy search, the dotted ellipse of SGHMC/SGFS/OSGFS/pSGLD, the grid truth's moments.
  group curvature-e2 '(in |replace )Curvature::(e2_of_variances|predicted_e2)( |$)' lib curvature_by_hand 'filter=not test(/^unit::/) or test(/^unit::curvature::/)' -- src/curvature.rs
  group promise-law '(in |replace )(error_law|draw_e2|mean_variance|nearest_fix_among)( |$)' lib promise_thresholds promise_defaults promise_remedy 'filter=not test(/^unit::/) or test(/^unit::promise::/)' -- src/promise.rs
  group law-chains '(in |replace )(sghmc_chain|sgfs_chain|osgfs_chain|rmsprop_preconditioner)( |$)' lib 'filter=test(law::)' -- src/law.rs
  group truth-moments '(in |replace )(weighted_moments|marginal|grid_truth)( |$)' truth_grid_by_hand targets 'filter=not test(/^targets::/) or test(/^targets::(grid|truth_for|funnel)/)' -- src/truth.rs
  # Issue 23, twelfth pass (MUTANTS.md): the SGAIS text numbers (the replicas' agreement check, the
  # reliability warning, the replica spread) and run.rs's resampling threshold and end guard.
  group sgais-text '.' lib sgais_summary 'filter=test(/^(unit::sgais::(agreement|warning|replicas|spread)|sgais_summary)::/)' -- src/sgais/agreement.rs src/sgais/warning.rs src/sgais/spread.rs
  group sgais-resample '(in |replace )SgaisRun::(maybe_resample|systematic_resample)( |$)' sgais_run_by_hand -- src/sgais/run.rs
  group analysis '.' lib analysis_wiring 'filter=test(/^(unit::)?analysis(_wiring)?::/) and not test(schedule_sweep_varies)' -- src/analysis.rs
  exit 0
fi
args=(-j 1 --no-shuffle)
[ -n "${MUTANTS_SHARD:-}" ] && args+=(--shard "$MUTANTS_SHARD")
[ -n "${MUTANTS_RE:-}" ] && args+=(--re "$MUTANTS_RE")
# shellcheck disable=SC2206
args+=(${MUTANTS_ARGS:-})
echo "== cargo mutants ${args[*]}"
nice -n 10 cargo mutants "${args[@]}"
