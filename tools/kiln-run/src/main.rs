fn main() -> std::process::ExitCode {
    kiln_run::run_main(std::env::args_os())
}
