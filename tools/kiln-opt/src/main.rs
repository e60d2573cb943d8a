//! `kiln-opt`: Kiln's mlir-opt. Everything lives in the library; see [`kiln_opt::opt_main`].

fn main() -> std::process::ExitCode {
    kiln_opt::opt_main(std::env::args_os())
}
