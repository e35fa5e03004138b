//! Every folder under `tests/fixtures/broken/` is a deliberately broken schemas folder with the
//! exact diagnostics it must produce in `expected.txt` (one line each, file paths relative to the
//! folder). The same files are checked through `schemcp check` (the root package's
//! `tests/broken_contracts.rs`) and through `build.rs` (`schemcp-build`'s `tests/broken_build.rs`),
//! so the three entry points cannot drift apart.
//!
//! Refresh after a deliberate change with `EXPECTORATE=overwrite cargo test -p schemcp-contract
//! --test broken_expected`, and review the diff.

use std::path::{Path, PathBuf};

use expectorate::assert_contents;
use schemcp_contract::load;

#[path = "fixtures/broken_cases.rs"]
mod broken_cases;

fn cases() -> Vec<PathBuf> {
    broken_cases::broken_cases(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."))
}

/// The one-line diagnostics of `dir` (errors, or warnings if it loads), with `dir/` stripped.
fn diagnostics(dir: &Path) -> String {
    let lines = match load(dir) {
        Ok(set) => set
            .warnings
            .iter()
            .map(|d| d.one_line() + "\n")
            .collect::<String>(),
        Err(diagnostics) => diagnostics.one_line(),
    };
    lines.replace(&format!("{}/", dir.display()), "")
}

#[test]
fn every_broken_folder_produces_exactly_its_expected_diagnostics() {
    let cases = cases();
    // The list: each of these must be a folder here.
    for required in [
        "invalid-json",
        "missing-input-schema",
        "input-root-not-object",
        "network-ref",
        "dangling-ref-file",
        "dangling-ref-pointer",
        "ref-cycle",
        "ref-cycle-self",
        "duplicate-tool-name",
        "invalid-tool-name",
        "unsupported-dialect",
    ] {
        assert!(
            cases.iter().any(|c| c.ends_with(required)),
            "tests/fixtures/broken/{required} is missing"
        );
    }
    for case in &cases {
        let got = diagnostics(case);
        assert!(!got.is_empty(), "{} produced no diagnostic", case.display());
        assert_contents(case.join("expected.txt"), &got);
    }
}
