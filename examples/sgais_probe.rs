use sgviz::params::ParamValues;
use sgviz::sgais::models::{evidence_target};
use sgviz::sgais::{run::SgaisRun, ais::ais_run, SgaisConfig, PARAMS};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let target = evidence_target(&args[1]).unwrap();
    let n: f64 = args[2].parse().unwrap();
    let chunk: f64 = args[3].parse().unwrap();
    let mut tv = ParamValues::defaults(target.params);
    tv.set(target.params, "n_points", n).unwrap();
    let model = (target.build)(&tv, None).unwrap();
    let mut sv = ParamValues::defaults(PARAMS);
    sv.set(PARAMS, "chunk_size", chunk).unwrap();
    sv.set(PARAMS, "batch_size", chunk).unwrap();
    for kv in &args[4..] { let (k,v)=kv.split_once("=").unwrap(); let spec=PARAMS.iter().find(|s| s.name==k).unwrap(); sv.set(PARAMS,k,spec.parse(v).unwrap()).unwrap(); }
    let config = SgaisConfig::from_values(&sv).unwrap();
    for seed in 0..3 {
        let t = std::time::Instant::now();
        let mut run = SgaisRun::new(model.clone(), config.clone(), n as usize, seed);
        run.run_to_end();
        let steps: usize = run.records().iter().map(|r| r.annealing_steps).sum();
        let first: Vec<String> = run.records().iter().take(5).map(|r| format!("{}:{:.2}/{:?} s{}", r.n, r.log_z, r.exact_log_z.map(|z| (z*100.0).round()/100.0), r.annealing_steps)).collect();
        println!("sgais seed {seed}: {:?} log_z {:.3} exact {:?} steps {} t {:.2}s  {:?}", run.status(), run.log_z(), run.exact_log_z(), steps, t.elapsed().as_secs_f64(), first);
        let t = std::time::Instant::now();
        let mut ais = ais_run(model.clone(), &config, n as usize, seed);
        ais.run_to_end();
        println!("   ais: log_z {:.3} steps {} t {:.2}s", ais.log_z(), ais.records()[0].annealing_steps, t.elapsed().as_secs_f64());
    }
}
