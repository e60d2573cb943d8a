//! A long session with changing shapes: 10^5 flushes over 10^3 distinct shapes (each shape
//! 100 times in a row: a 4-op chain, read back), with the default cache (256 segments) and
//! context budget. Prints the peak RSS (`VmHWM`) after every 10^4 flushes: it should level off
//! once the cache is full. Run: `cargo bench -p kiln-eager --bench long_session`.

use kiln_eager::{Flags, Session};

fn peak_rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

fn main() {
    let s = Session::new(Flags::default()).unwrap();
    let start = std::time::Instant::now();
    let mut flushes = 0u64;
    for shape in 0..1000usize {
        let (rows, cols) = (1 + shape % 8, 16 + shape);
        let data = vec![0.25f32; rows * cols];
        let x = s.tensor(&data, &[rows, cols]).unwrap();
        for _ in 0..100 {
            let y = x.mul(&x).unwrap().add(1.0).unwrap().sqrt().unwrap().neg().unwrap();
            y.host().unwrap();
            flushes += 1;
            if flushes.is_multiple_of(10_000) {
                println!("flushes={flushes} peak_rss={} KiB elapsed={:.1?}", peak_rss_kib(), start.elapsed());
            }
        }
    }
    let st = s.stats();
    println!(
        "done: flushes={flushes} shapes=1000 hits={} misses={} evictions={} cached={} peak_rss={} KiB",
        st.cache_hits,
        st.cache_misses,
        st.cache_evictions,
        s.cache_len(),
        peak_rss_kib()
    );
}
