//! Reading a control plane's dump of Clusters (`web/bench/dump.mjs`): the same objects as one
//! YAML List, as `---` documents, and as JSON, through `yaml::objects` as the package reads
//! them. `ALLOT_DUMP_CLUSTERS` sets how many (2,000 by default).

use allot_web::yaml::{objects, slowly};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::process::Command;

fn dump(n: usize, shape: &str) -> String {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/bench/dump.mjs");
    let out = Command::new("node")
        .args([root, &n.to_string(), shape])
        .output()
        .expect("node runs web/bench/dump.mjs");
    String::from_utf8(out.stdout).expect("UTF-8")
}

fn read(c: &mut Criterion) {
    let n = std::env::var("ALLOT_DUMP_CLUSTERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2_000);
    let mut g = c.benchmark_group("objects");
    g.sample_size(10);
    for shape in ["list", "documents", "json"] {
        let text = dump(n, shape);
        assert_eq!(objects(&text).expect("reads").len(), n);
        g.throughput(Throughput::Bytes(text.len() as u64));
        g.bench_function(format!("{shape}-{n}"), |b| b.iter(|| objects(&text)));
        if shape != "json" {
            // The way every YAML text was read before, and errors still are: through generic
            // values and the JSON reader.
            g.bench_function(format!("{shape}-{n}-through-values"), |b| {
                b.iter(|| slowly(&text))
            });
        }
    }
    g.finish();
}

criterion_group!(benches, read);
criterion_main!(benches);
