//! The suite's groups that reference its remote documents, bundled by the harness
//! (`bundle_remotes`): the runtime's validator, which never fetches, gives every instance the
//! verdict the suite expects. Needs the suite, as `suite.rs` does.

use std::path::PathBuf;

#[test]
fn bundled_remote_references_validate_as_the_suite_expects() {
    let suite = PathBuf::from(std::env::var_os("SCHEMCP_JSON_SCHEMA_SUITE").expect(
        "SCHEMCP_JSON_SCHEMA_SUITE is not set: run ./scripts/test, which fetches the pinned \
         JSON-Schema-Test-Suite and sets it",
    ));
    let mut groups = schemcp_fidelity::read_suite(&suite).unwrap();
    groups.extend(schemcp_fidelity::read_optional(&suite).unwrap());
    let mut bundled = 0;
    let mut wrong = Vec::new();
    for group in &groups {
        if !group.schema.to_string().contains("suiteRemote") {
            continue;
        }
        bundled += 1;
        let validator = match jsonschema::validator_for(&group.schema) {
            Ok(validator) => validator,
            Err(e) => {
                wrong.push(format!(
                    "{} / {}: does not compile: {e}",
                    group.file, group.description
                ));
                continue;
            }
        };
        for test in &group.tests {
            if validator.is_valid(&test.data) != test.valid {
                wrong.push(format!(
                    "{} / {} / {}: expected {}",
                    group.file, group.description, test.description, test.valid
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
    // refRemote's 15, dynamicRef's 5, vocabulary's 2, and 3 in `optional/` (format-assertion,
    // cross-draft).
    assert_eq!(bundled, 25, "groups bundled");
}
