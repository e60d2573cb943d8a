//! The `kiln-filecheck` binary: forwards its arguments to the library.

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let opts = std::env::var("FILECHECK_OPTS").ok();
    std::process::exit(kiln_filecheck::run(&args, opts.as_deref()));
}
