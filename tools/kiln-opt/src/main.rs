//! `kiln-opt`: Kiln's mlir-opt. Everything lives in the library; see [`kiln_opt::opt_main`].

// mimalloc: parsing allocates many small objects; it is markedly faster than glibc's malloc here
// (see benches/opt_vs_mlir.sh).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    kiln_opt::opt_main(std::env::args_os())
}
