"""Local modes of a K-component diagonal Gaussian mixture (docs/sgais.md §8, B.3 priors) by MAP EM from
random starts (and optional given centres), written apart from src/model/gmm.rs as an independent check.
Usage: python3 scripts/gmm_em_modes.py K STARTS SEED ["x,y;x,y;..."] < points.txt (examples/shift_points.rs).
Prints distinct local maxima: log-likelihood, log posterior (unnormalised), and each component."""
import sys, math, random
pts = [tuple(map(float, l.split())) for l in sys.stdin if l.strip()]
K = int(sys.argv[1]); starts = int(sys.argv[2])
N = len(pts)
def loglik(w, mu, var):
    tot = 0.0; R = []
    for (x, y) in pts:
        lp = [math.log(w[k]) - math.log(2*math.pi) - 0.5*math.log(var[k][0]*var[k][1])
              - (x-mu[k][0])**2/(2*var[k][0]) - (y-mu[k][1])**2/(2*var[k][1]) for k in range(K)]
        m = max(lp); s = sum(math.exp(v-m) for v in lp); tot += m + math.log(s)
        R.append([math.exp(v-m)/s for v in lp])
    return tot, R
def logprior(w, mu, var):
    # Dir(1) on w (constant log Γ(K)), μ|σ² ~ N(0, 4σ²), σ² ~ InvGamma(1,1): density in (w, μ, σ²)
    lp = math.lgamma(K)
    for k in range(K):
        for j in range(2):
            v = var[k][j]
            lp += -0.5*math.log(2*math.pi*4*v) - mu[k][j]**2/(8*v) - 2*math.log(v) - 1/v
    return lp
def em(w, mu, var, iters=300):
    prev = -1e300
    for it in range(iters):
        ll, R = loglik(w, mu, var)
        lpost = ll + logprior(w, mu, var)
        if abs(lpost - prev) < 1e-6: break
        prev = lpost
        for k in range(K):
            nk = sum(r[k] for r in R)
            w[k] = max(nk, 1e-9)  # Dir(1): MAP weights ∝ n_k
            for j in range(2):
                sx = sum(r[k]*p[j] for r, p in zip(R, pts)); sxx = sum(r[k]*p[j]**2 for r, p in zip(R, pts))
                # MAP for (μ, σ²) under N(0, 4σ²) × InvGamma(1,1): μ = sx/(nk + 1/4)
                m = sx/(nk + 0.25)
                ss = sxx - 2*m*sx + nk*m*m + m*m/4
                v = (ss + 2*1.0)/(nk + 1 + 2*(1 + 1))  # (SS + 2b)/(n + 1 + 2(a+1)), a = b = 1
                mu[k][j] = m; var[k][j] = max(v, 1e-6)
        s = sum(w); w[:] = [x/s for x in w]
    ll, _ = loglik(w, mu, var)
    return ll, ll + logprior(w, mu, var)
random.seed(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
found = []
inits = []
if len(sys.argv) > 4:  # explicit init centres "x,y;x,y;..."
    inits.append([tuple(map(float, c.split(','))) for c in sys.argv[4].split(';')])
for s in range(starts):
    inits.append([random.choice(pts) for _ in range(K)])
for c in inits:
    w = [1.0/K]*K; mu = [list(p) for p in c]; var = [[0.5, 0.5] for _ in range(K)]
    ll, lpost = em(w, mu, var)
    key = tuple(sorted((round(m[0], 1), round(m[1], 1)) for m in mu))
    if not any(abs(lpost - f[1]) < 0.05 for f in found):
        found.append((ll, lpost, sorted(zip([round(x, 3) for x in w], [(round(m[0], 2), round(m[1], 2)) for m in mu], [(round(v[0], 2), round(v[1], 2)) for v in var]), key=lambda t: t[1])))
    print(f"start {c[:K]} -> log-lik {ll:.1f}, log post {lpost:.1f}", flush=True)
print("distinct modes, best first:")
for f in sorted(found, key=lambda f: -f[1]):
    print(f"log-lik {f[0]:.1f}, log post {f[1]:.1f}: {f[2]}")
