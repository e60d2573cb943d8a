/* The 8-op elementwise chain of benches/vm_vs_c_numpy.sh, hand-fused: one pass over the data,
 * vectorized by the compiler (-O3 -march=native -ffast-math gives vector exp/tanh via libmvec),
 * split over threads with OpenMP. Prints the median of N timed runs in milliseconds. */
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The most timed runs: times[] holds them and the warm-up. */
#define MAX_RUNS 63

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 16L << 20;
    int runs = argc > 2 ? atoi(argv[2]) : 5;
    if (runs < 1 || runs > MAX_RUNS) {
        fprintf(stderr, "chain: runs must be 1..%d, got %d\n", MAX_RUNS, runs);
        return 1;
    }
    if (n < 1 || (unsigned long)n > SIZE_MAX / sizeof(float)) {
        fprintf(stderr, "chain: the element count must be positive and addressable, got %ld\n", n);
        return 1;
    }
    float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *o = malloc(n * sizeof *o);
    if (!a || !b || !o) {
        fprintf(stderr, "chain: cannot allocate 3 x %ld floats\n", n);
        return 1;
    }
    for (long i = 0; i < n; i++) {
        a[i] = (float)((i * 2654435761u) % 4096) / 1024.0f - 2.0f;
        b[i] = (float)((i * 40503u) % 4096) / 1024.0f - 2.0f;
    }
    double times[MAX_RUNS + 1];
    for (int r = 0; r <= runs; r++) {
        double t0 = omp_get_wtime();
#pragma omp parallel for simd schedule(static)
        for (long i = 0; i < n; i++) {
            float x = a[i] + b[i];
            x = x * a[i];
            x = expf(x);
            x = x + b[i];
            x = fmaxf(x, a[i]);
            x = x * b[i];
            x = x - a[i];
            o[i] = tanhf(x);
        }
        times[r] = (omp_get_wtime() - t0) * 1e3;
    }
    /* times[0] is the warm-up. */
    qsort(times + 1, runs, sizeof *times, cmp);
    printf("%.3f %.3f %.3f %f\n", times[1 + runs / 2], times[1], times[runs], o[n / 3]);
    return 0;
}
