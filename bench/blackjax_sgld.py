"""BlackJAX's jit-compiled SGLD on the data of sgviz's bench case "logreg d=4" (issue 16).

Same workload as `sgviz sample --target logreg_dd --set n_dims=4 --set n_points=10000
--sampler sgld --set step_size=1e-5 --set batch_size=32 --steps 200000`: logistic regression
without intercept, N(0, 100² I) prior, N = 10⁴, minibatch n = 32, 200,000 steps, float64, chain
started at the same point (the posterior mode the CSV's first line records). BlackJAX writes the
Langevin step as θ + h ∇log π̂ + √(2h) ξ, so h = ε/2.

The whole chain is one `jax.lax.scan` under `jax.jit`; minibatch indices are drawn inside it,
with replacement by default (`jax.random.randint`, cheaper for JAX than sgviz's draw without
replacement; `--without-replacement` uses `jax.random.choice(..., replace=False)`).

    python bench/blackjax_sgld.py DATA.csv [--steps 200000] [--without-replacement]

DATA.csv comes from `target/release/sgviz-bench --export-logreg-dd DATA.csv`. Prints one JSON line
with the phase times (import, data load + compile, run); time the whole process from outside.
"""

import json
import sys
import time

started = time.perf_counter()
import jax  # noqa: E402

jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
import blackjax  # noqa: E402

imported = time.perf_counter()


def main():
    args = sys.argv[1:]
    path = args[0]
    steps = int(args[args.index("--steps") + 1]) if "--steps" in args else 200_000
    with_replacement = "--without-replacement" not in args
    with open(path) as f:
        header = f.readline()
    start = np.array([float(v) for v in header.strip().lstrip("#").split("mode=")[1].split(";")])
    table = np.loadtxt(path, delimiter=",", skiprows=2)
    features, labels = jnp.asarray(table[:, :-1]), jnp.asarray(table[:, -1])
    n_data, batch_size, prior_sd, epsilon = features.shape[0], 32, 100.0, 1e-5

    def log_prior(w):
        return -0.5 * jnp.sum(w * w) / prior_sd**2

    def log_lik(w, datum):
        x, y = datum
        z = x @ w
        return y * jax.nn.log_sigmoid(z) + (1.0 - y) * jax.nn.log_sigmoid(-z)

    grad_fn = blackjax.sgmcmc.gradients.grad_estimator(log_prior, log_lik, n_data)
    sgld = blackjax.sgld(grad_fn)

    def one_step(carry, key):
        position, sums = carry
        batch_key, noise_key = jax.random.split(key)
        if with_replacement:
            idx = jax.random.randint(batch_key, (batch_size,), 0, n_data)
        else:
            idx = jax.random.choice(batch_key, n_data, (batch_size,), replace=False)
        position = sgld.step(noise_key, position, (features[idx], labels[idx]), epsilon / 2)
        return (position, sums + position), None

    @jax.jit
    def run(key, position):
        keys = jax.random.split(key, steps)
        (position, sums), _ = jax.lax.scan(one_step, (position, jnp.zeros_like(position)), keys)
        return position, sums / steps

    position = jnp.asarray(start)
    compiled = run.lower(jax.random.key(1), position).compile()
    compiled_at = time.perf_counter()
    final, mean = compiled(jax.random.key(1), position)
    final.block_until_ready()
    ran_at = time.perf_counter()
    print(json.dumps({
        "steps": steps, "with_replacement": with_replacement, "mean": np.asarray(mean).tolist(),
        "import_seconds": imported - started, "load_and_compile_seconds": compiled_at - imported,
        "run_seconds": ran_at - compiled_at, "steps_per_second_run": steps / (ran_at - compiled_at),
        "jax": jax.__version__, "blackjax": blackjax.__version__,
    }))


main()
