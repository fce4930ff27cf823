"""Laplace evidence of given K = 3 mixture modes (e.g. from scripts/gmm_em_modes.py) in the sampler's
unconstrained coordinates (docs/sgais.md (SGAIS.8)-(SGAIS.10)), Newton-polished with a finite-difference
Hessian, plus log K! for label switching. Usage: python3 scripts/gmm_laplace_modes.py points.txt "[(w, mu, var), ...]"."""
import sys, math
pts = [tuple(map(float, l.split())) for l in open(sys.argv[1]) if l.strip()]
K = 3
def logpost(t):
    z = list(t[:K-1]) + [0.0]; m = max(z); lse = m + math.log(sum(math.exp(v-m) for v in z))
    lb = [v - lse for v in z]
    mu = t[K-1:K-1+2*K]; rho = t[K-1+2*K:]
    lp = math.lgamma(K) + sum(lb)
    for i in range(2*K):
        lp += -rho[i] - math.exp(-rho[i]) - 0.5*math.log(2*math.pi*4*math.exp(rho[i])) - mu[i]**2/(8*math.exp(rho[i]))
    c = [lb[k] - math.log(2*math.pi) - 0.5*(rho[2*k]+rho[2*k+1]) for k in range(K)]
    iv = [math.exp(-r) for r in rho]
    for (x, y) in pts:
        a = [c[k] - 0.5*(x-mu[2*k])**2*iv[2*k] - 0.5*(y-mu[2*k+1])**2*iv[2*k+1] for k in range(K)]
        mx = max(a); lp += mx + math.log(sum(math.exp(v-mx) for v in a))
    return lp
def hess_grad(t, h=1e-3):
    d = len(t); f0 = logpost(t); g = [0]*d; H = [[0]*d for _ in range(d)]
    fp = []; fm = []
    for i in range(d):
        tp = list(t); tp[i] += h; tm = list(t); tm[i] -= h
        fp.append(logpost(tp)); fm.append(logpost(tm))
        g[i] = (fp[i]-fm[i])/(2*h); H[i][i] = (fp[i]-2*f0+fm[i])/h**2
    for i in range(d):
        for j in range(i+1, d):
            tpp = list(t); tpp[i] += h; tpp[j] += h
            H[i][j] = H[j][i] = (logpost(tpp) - fp[i] - fp[j] + f0)/h**2
    return f0, g, H
def solve(A, b):
    n = len(b); M = [row[:] + [b[i]] for i, row in enumerate(A)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(M[r][c])); M[c], M[p] = M[p], M[c]
        for r in range(n):
            if r != c:
                f = M[r][c]/M[c][c]; M[r] = [a - f*bb for a, bb in zip(M[r], M[c])]
    return [M[i][n]/M[i][i] for i in range(n)]
def logdet_neg(H):
    n = len(H); M = [[-v for v in row] for row in H]; ld = 0.0
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(M[r][c])); M[c], M[p] = M[p], M[c]
        if M[c][c] <= 0: return float('nan')
        ld += math.log(M[c][c])
        for r in range(c+1, n):
            f = M[r][c]/M[c][c]; M[r] = [a - f*bb for a, bb in zip(M[r], M[c])]
    return ld
modes = eval(sys.argv[2])  # [(w list, mu list, var list)]
for w, mu, var in modes:
    t = [math.log(w[k]/w[K-1]) for k in range(K-1)] + [v for m in mu for v in m] + [math.log(v) for vv in var for v in vv]
    for it in range(4):
        f, g, H = hess_grad(t)
        step = solve([[-v for v in row] for row in H], g)
        t = [a + s for a, s in zip(t, step)]
    f, g, H = hess_grad(t)
    d = len(t)
    lz = f + 0.5*d*math.log(2*math.pi) - 0.5*logdet_neg(H) + math.log(math.factorial(K))
    print(f"mode at log post {f:.1f} (|grad| {max(abs(x) for x in g):.2e}): Laplace log Z (one mode, x K!) {lz:.1f}; means {[round(x,2) for x in t[K-1:K-1+2*K]]}", flush=True)
