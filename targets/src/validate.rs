//! The rules a parsed target must satisfy before any pass or the VM sees it. Each rule names
//! the field it rejects, so a broken file is fixed at the right line:
//!
//! 1. counts, sizes and rates that something divides by or allocates from are positive
//!    (core counts, memories, alignment, vector repeat, fractal, pipe rates, event ids, clock,
//!    HBM); fixed costs may be zero;
//! 2. `memory.ub_usable_bytes <= memory.ub_bytes`;
//! 3. `memory.alignment_bytes` is a power of two and `vector.repeat_bytes` a multiple of it;
//! 4. the usable UB holds at least one aligned vector repeat;
//! 5. L0A and L0B hold one f16 fractal, L0C one f32 fractal, L1 one of each operand.

use crate::schema::Target;

/// Bytes of the cube's input elements (f16) and of its accumulator (f32).
const CUBE_IN_BYTES: u64 = 2;
const CUBE_ACC_BYTES: u64 = 4;

/// Checks the rules above; the error names the first field that breaks one.
pub(crate) fn validate(t: &Target) -> Result<(), String> {
    let m = &t.memory;
    let p = &t.pipes;
    let positive: [(&str, u64); 22] = [
        ("cores.vector", t.cores.vector.into()),
        ("cores.cube", t.cores.cube.into()),
        ("memory.ub_bytes", m.ub_bytes),
        ("memory.ub_usable_bytes", m.ub_usable_bytes),
        ("memory.alignment_bytes", m.alignment_bytes),
        ("memory.l1_bytes", m.l1_bytes),
        ("memory.l0a_bytes", m.l0a_bytes),
        ("memory.l0b_bytes", m.l0b_bytes),
        ("memory.l0c_bytes", m.l0c_bytes),
        ("vector.repeat_bytes", t.vector.repeat_bytes),
        ("vector.max_repeats", t.vector.max_repeats.into()),
        ("cube.fractal", t.cube.fractal.into()),
        ("pipes.mte2_bytes_per_cycle", p.mte2_bytes_per_cycle.into()),
        ("pipes.mte3_bytes_per_cycle", p.mte3_bytes_per_cycle.into()),
        ("pipes.mte1_bytes_per_cycle", p.mte1_bytes_per_cycle.into()),
        ("pipes.vector_cycles_per_repeat", p.vector_cycles_per_repeat.into()),
        ("pipes.cube_macs_per_cycle", p.cube_macs_per_cycle.into()),
        ("pipes.fixpipe_bytes_per_cycle", p.fixpipe_bytes_per_cycle.into()),
        ("sync.event_ids", t.sync.event_ids.into()),
        ("clock.mhz", t.clock.mhz.into()),
        ("hbm.bandwidth_gb_per_s", t.hbm.bandwidth_gb_per_s.into()),
        ("hbm.capacity_bytes", t.hbm.capacity_bytes),
    ];
    if let Some((field, _)) = positive.iter().find(|(_, v)| *v == 0) {
        return Err(format!("field `{field}` must be positive"));
    }
    if m.ub_usable_bytes > m.ub_bytes {
        return Err(format!(
            "field `memory.ub_usable_bytes` ({}) exceeds `memory.ub_bytes` ({})",
            m.ub_usable_bytes, m.ub_bytes
        ));
    }
    if !m.alignment_bytes.is_power_of_two() {
        return Err(format!("field `memory.alignment_bytes` ({}) must be a power of two", m.alignment_bytes));
    }
    if !t.vector.repeat_bytes.is_multiple_of(m.alignment_bytes) {
        return Err(format!(
            "field `vector.repeat_bytes` ({}) must be a multiple of `memory.alignment_bytes` ({})",
            t.vector.repeat_bytes, m.alignment_bytes
        ));
    }
    if m.ub_usable_bytes < t.vector.repeat_bytes {
        return Err(format!(
            "field `memory.ub_usable_bytes` ({}) cannot hold one vector repeat (`vector.repeat_bytes` = {})",
            m.ub_usable_bytes, t.vector.repeat_bytes
        ));
    }
    let fractal = u64::from(t.cube.fractal).pow(2);
    let holds = [
        ("memory.l0a_bytes", m.l0a_bytes, fractal.saturating_mul(CUBE_IN_BYTES), "an f16"),
        ("memory.l0b_bytes", m.l0b_bytes, fractal.saturating_mul(CUBE_IN_BYTES), "an f16"),
        ("memory.l0c_bytes", m.l0c_bytes, fractal.saturating_mul(CUBE_ACC_BYTES), "an f32"),
        ("memory.l1_bytes", m.l1_bytes, fractal.saturating_mul(2 * CUBE_IN_BYTES), "two f16"),
    ];
    if let Some((field, bytes, need, what)) = holds.iter().find(|(_, bytes, need, _)| bytes < need) {
        return Err(format!(
            "field `{field}` ({bytes}) cannot hold {what} {side}x{side} fractal{s} ({need} bytes, from `cube.fractal`)",
            side = t.cube.fractal,
            s = if what.starts_with("two") { "s" } else { "" },
        ));
    }
    Ok(())
}
