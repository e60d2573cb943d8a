fn main() -> std::process::ExitCode {
    kiln_translate::translate_main(std::env::args_os())
}
