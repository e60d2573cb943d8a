//! The `kiln-lit` binary: parses the command line and hands over to
//! [`kiln_lit::run`].

use clap::Parser;

fn main() {
    std::process::exit(kiln_lit::run(kiln_lit::Options::parse()));
}
