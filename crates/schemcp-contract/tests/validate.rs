//! Bundled schemas compile and validate with a real 2020-12 validator that fetches nothing, so
//! every rewritten `$ref` resolves inside its own schema.

use schemcp_contract::load;
use serde_json::json;

#[test]
fn every_bundled_schema_compiles_without_fetching() {
    let set = load("tests/fixtures/good/weather").unwrap();
    for tool in &set.tools {
        for schema in [Some(tool.input_schema()), tool.output_schema()]
            .into_iter()
            .flatten()
        {
            if let Err(e) = jsonschema::validator_for(schema) {
                panic!("{}: {e}\n{schema:#}", tool.name);
            }
        }
    }
}

#[test]
fn copied_definitions_keep_validating() {
    let set = load("tests/fixtures/good/weather").unwrap();
    let input = jsonschema::validator_for(set.tool("get_weather").unwrap().input_schema()).unwrap();
    let mut args = json!({
        "address": { "city": "London", "country": "GB", "location": { "lat": 51.5, "lon": -0.1 } },
        "unit": "celsius"
    });
    assert!(input.is_valid(&args));
    // CountryCode, copied from common.json by way of Address.
    args["address"]["country"] = json!("gb");
    assert!(!input.is_valid(&args));
    args["address"]["country"] = json!("GB");
    // Point, copied from geo/point.json by way of Address.
    args["address"]["location"]["lat"] = json!(91);
    assert!(!input.is_valid(&args));

    let tree = jsonschema::validator_for(set.tool("places.list").unwrap().output_schema().unwrap())
        .unwrap();
    let leaf = json!({ "name": "Soho", "children": [] });
    assert!(tree.is_valid(&json!({ "name": "London", "children": [leaf] })));
    assert!(!tree.is_valid(&json!({ "name": "London", "children": [{ "name": "Soho" }] })));

    let forecast =
        jsonschema::validator_for(set.tool("get_forecast").unwrap().output_schema().unwrap())
            .unwrap();
    assert!(
        forecast
            .is_valid(&json!([{ "temperature": 12.5, "conditions": "rain", "unit": "celsius" }]))
    );
    assert!(
        !forecast
            .is_valid(&json!([{ "temperature": 12.5, "conditions": "rain", "unit": "kelvin" }]))
    );
}
