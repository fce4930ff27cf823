use sgviz::params::ParamValues;
use sgviz::sgais::models::evidence_target;
use sgviz::sgais::{run::SgaisRun, SgaisConfig, PARAMS};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let target = evidence_target("linreg").unwrap();
    let mut tv = ParamValues::defaults(target.params);
    tv.set(target.params, "n_points", 2000.0).unwrap();
    let model = (target.build)(&tv, None).unwrap();
    let mut sv = ParamValues::defaults(PARAMS);
    for kv in &args[1..] { let (k,v)=kv.split_once("=").unwrap(); let spec=PARAMS.iter().find(|s| s.name==k).unwrap(); sv.set(PARAMS,k,spec.parse(v).unwrap()).unwrap(); }
    let config = SgaisConfig::from_values(&sv).unwrap();
    let mut errs = vec![vec![]; 3];
    let mut worst_rel: Vec<f64> = vec![];
    for seed in 0..40 {
        let mut run = SgaisRun::new(model.clone(), config.clone(), 2000, 1000 + seed);
        run.run_to_end();
        let r = run.records();
        let e = |k: usize| r[k].log_z - r[k].exact_log_z.unwrap();
        errs[0].push(e(0)); errs[1].push(e(r.len()/4)); errs[2].push(e(r.len()-1));
        worst_rel.push(r.iter().map(|x| ((x.log_z - x.exact_log_z.unwrap())/x.exact_log_z.unwrap()).abs()).fold(0.0, f64::max));
    }
    for e in &errs { let m = e.iter().sum::<f64>()/40.0; let sd = (e.iter().map(|x|(x-m)*(x-m)).sum::<f64>()/39.0).sqrt(); let mx = e.iter().map(|x| x.abs()).fold(0.0,f64::max); println!("mean {m:.2} sd {sd:.2} max|e| {mx:.2}"); }
    println!("final rel max {:.4}", errs[2].iter().map(|x| x.abs()/2865.5).fold(0.0,f64::max));
}
