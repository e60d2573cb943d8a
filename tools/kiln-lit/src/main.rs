//! The `kiln-lit` binary: parses the command line and hands over to
//! [`kiln_lit::run`].

use clap::Parser;

fn main() {
    let args = match kiln_lit::command_line() {
        Ok(args) => args,
        Err(message) => {
            eprintln!("kiln-lit: error: {message}");
            std::process::exit(2);
        }
    };
    std::process::exit(kiln_lit::run(kiln_lit::Options::parse_from(args)));
}
