//! Lane loops compiled for AVX-512 and AVX2 (with FMA) as well as the baseline, dispatched on
//! the host CPU: the same IEEE operations in wider registers. Rust never contracts `a * b + c`,
//! and an explicit `mul_add` is exactly rounded in every variant (one instruction where FMA is
//! enabled, `libm`'s `fmaf` in the baseline), so every variant gives the same bits.

/// `out[i] = f(src[i])`.
#[inline(always)]
pub(crate) fn map<T: Copy>(src: &[T], out: &mut [T], f: impl Fn(T) -> T + Copy) {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx512f") {
            // SAFETY: `map_avx512` only requires AVX-512F, which the CPU has (checked just above).
            return unsafe { map_avx512(src, out, f) };
        }
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma") {
            // SAFETY: `map_avx2` only requires AVX2 and FMA, which the CPU has (checked just above).
            return unsafe { map_avx2(src, out, f) };
        }
    }
    map_plain(src, out, f)
}

#[inline(always)]
pub(crate) fn map_plain<T: Copy>(src: &[T], out: &mut [T], f: impl Fn(T) -> T) {
    for (o, &x) in out.iter_mut().zip(src) {
        *o = f(x);
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
pub(crate) fn map_avx2<T: Copy>(src: &[T], out: &mut [T], f: impl Fn(T) -> T) {
    map_plain(src, out, f)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
pub(crate) fn map_avx512<T: Copy>(src: &[T], out: &mut [T], f: impl Fn(T) -> T) {
    map_plain(src, out, f)
}

/// `out[i] = f(a[i], b[i])`, for any lane types.
#[inline(always)]
pub(crate) fn zip<T: Copy, U>(a: &[T], b: &[T], out: &mut [U], f: impl Fn(T, T) -> U + Copy) {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx512f") {
            // SAFETY: `zip_avx512` only requires AVX-512F, which the CPU has (checked just above).
            return unsafe { zip_avx512(a, b, out, f) };
        }
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma") {
            // SAFETY: `zip_avx2` only requires AVX2 and FMA, which the CPU has (checked just above).
            return unsafe { zip_avx2(a, b, out, f) };
        }
    }
    zip_plain(a, b, out, f)
}

#[inline(always)]
fn zip_plain<T: Copy, U>(a: &[T], b: &[T], out: &mut [U], f: impl Fn(T, T) -> U) {
    for ((o, &x), &y) in out.iter_mut().zip(a).zip(b) {
        *o = f(x, y);
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn zip_avx2<T: Copy, U>(a: &[T], b: &[T], out: &mut [U], f: impl Fn(T, T) -> U) {
    zip_plain(a, b, out, f)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn zip_avx512<T: Copy, U>(a: &[T], b: &[T], out: &mut [U], f: impl Fn(T, T) -> U) {
    zip_plain(a, b, out, f)
}

/// Folds the whole 16-value chunks of `values` into 16 lanes: for each chunk `c`,
/// `acc[k] = f(acc[k], c[k])` and `seen[k] |= test(c[k])`. Returns the values past the last
/// whole chunk.
#[inline(always)]
pub(crate) fn fold16<'v>(
    acc: &mut [f32; 16],
    seen: &mut [u32; 16],
    values: &'v [f32],
    f: impl Fn(f32, f32) -> f32 + Copy,
    test: impl Fn(f32) -> bool + Copy,
) -> &'v [f32] {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx512f") {
            // SAFETY: `fold16_avx512` only requires AVX-512F, which the CPU has (checked just
            // above).
            return unsafe { fold16_avx512(acc, seen, values, f, test) };
        }
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma") {
            // SAFETY: `fold16_avx2` only requires AVX2 and FMA, which the CPU has (checked just above).
            return unsafe { fold16_avx2(acc, seen, values, f, test) };
        }
    }
    fold16_plain(acc, seen, values, f, test)
}

#[inline(always)]
fn fold16_plain<'v>(
    acc: &mut [f32; 16],
    seen: &mut [u32; 16],
    values: &'v [f32],
    f: impl Fn(f32, f32) -> f32,
    test: impl Fn(f32) -> bool,
) -> &'v [f32] {
    let chunks = values.chunks_exact(16);
    let rest = chunks.remainder();
    for c in chunks {
        for ((a, s), &x) in acc.iter_mut().zip(seen.iter_mut()).zip(c) {
            *s |= u32::from(test(x));
            *a = f(*a, x);
        }
    }
    rest
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn fold16_avx2<'v>(
    acc: &mut [f32; 16],
    seen: &mut [u32; 16],
    values: &'v [f32],
    f: impl Fn(f32, f32) -> f32,
    test: impl Fn(f32) -> bool,
) -> &'v [f32] {
    fold16_plain(acc, seen, values, f, test)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn fold16_avx512<'v>(
    acc: &mut [f32; 16],
    seen: &mut [u32; 16],
    values: &'v [f32],
    f: impl Fn(f32, f32) -> f32,
    test: impl Fn(f32) -> bool,
) -> &'v [f32] {
    fold16_plain(acc, seen, values, f, test)
}

/// `dst.copy_from_slice(src)` with non-temporal stores where the host has them (x86-64): the
/// bytes go to memory without first being read into the cache, for copies into buffers too
/// large to stay cached. Ordered before the function returns (`sfence`).
pub(crate) fn stream_copy(dst: &mut [u8], src: &[u8]) {
    assert_eq!(dst.len(), src.len(), "stream_copy of unequal lengths");
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx") {
            // SAFETY: `stream_copy_avx` only requires AVX, which the CPU has (checked just above).
            return unsafe { stream_copy_avx(dst, src) };
        }
    }
    dst.copy_from_slice(src)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
fn stream_copy_avx(dst: &mut [u8], src: &[u8]) {
    use std::arch::x86_64::{__m256i, _mm256_loadu_si256, _mm256_stream_si256, _mm_sfence};
    // The head up to a 32-byte aligned address and the tail are copied plainly.
    let head = dst.as_ptr().align_offset(32).min(dst.len());
    dst[..head].copy_from_slice(&src[..head]);
    let body = (dst.len() - head) / 32 * 32;
    for at in (head..head + body).step_by(32) {
        // SAFETY: `at + 32 <= dst.len() == src.len()`, `dst[at..]` is 32-byte aligned (from
        // `head`), and the unaligned load has no alignment requirement.
        unsafe {
            let v = _mm256_loadu_si256(src.as_ptr().add(at).cast::<__m256i>());
            _mm256_stream_si256(dst.as_mut_ptr().add(at).cast::<__m256i>(), v);
        }
    }
    dst[head + body..].copy_from_slice(&src[head + body..]);
    _mm_sfence();
}

#[cfg(test)]
mod tests {
    #[test]
    fn stream_copy_is_a_copy_at_every_alignment_and_length() {
        let src: Vec<u8> = (0..4096u32).map(|i| (i * 7 + 3) as u8).collect();
        let mut dst = vec![0u8; 4096 + 64];
        for offset in 0..64 {
            for len in [0, 1, 31, 32, 33, 100, 1000, 4000] {
                dst.fill(0xAA);
                let from = &src[offset % 17..offset % 17 + len];
                super::stream_copy(&mut dst[offset..offset + len], from);
                assert_eq!(&dst[offset..offset + len], from, "offset {offset}, length {len}");
                assert!(dst[..offset].iter().chain(&dst[offset + len..]).all(|&b| b == 0xAA));
            }
        }
    }
}
