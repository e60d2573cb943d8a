//! What the eager benchmarks share: the session, the 8-op chain and the capture of one
//! segment (recorded and flushed; the time to the launch being ready).

use std::time::{Duration, Instant};

use kiln_eager::{Flags, Session, Tensor};

/// A session with `flags`.
pub fn session(flags: &str) -> Session {
    Session::new(Flags::parse(flags).unwrap().flags).unwrap()
}

/// add, mul, exp, add, maximum, mul, sub, tanh.
pub fn chain8(x: &Tensor, y: &Tensor) -> Tensor {
    let t = x.add(y).unwrap();
    let t = t.mul(x).unwrap();
    let t = t.exp().unwrap();
    let t = t.add(y).unwrap();
    let t = t.maximum(x).unwrap();
    let t = t.mul(y).unwrap();
    let t = t.sub(x).unwrap();
    t.tanh().unwrap()
}

/// Records the chain on one of `inputs` and flushes it; the time to the launch being ready
/// (record time + [`Stats::prepare_time`](kiln_eager::Stats::prepare_time), without the VM
/// run).
pub fn capture(s: &Session, inputs: &(Tensor, Tensor)) -> Duration {
    let before = s.stats().prepare_time;
    let start = Instant::now();
    let out = chain8(&inputs.0, &inputs.1);
    let recorded = start.elapsed();
    s.sync().unwrap();
    drop(out);
    recorded + (s.stats().prepare_time - before)
}

/// Records `n` (at least 1) `hl.neg` ops in a chain from `x`; nothing reads the chain.
pub fn neg_chain(x: &Tensor, n: u64) -> Tensor {
    let mut t = x.neg().unwrap();
    for _ in 1..n {
        t = t.neg().unwrap();
    }
    t
}
