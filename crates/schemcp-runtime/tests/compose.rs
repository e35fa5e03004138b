//! One server, two authors: generated tools plus a user's own rmcp handler for prompts.

mod support;

use rmcp::model::{
    GetPromptRequestParams, GetPromptResponse, GetPromptResult, ListPromptsResult,
    PaginatedRequestParams, Prompt, PromptMessage, Role, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::json;
use support::{Generation, PipeClient, catalog_tools, server, texts};

struct Prompts;

impl ServerHandler for Prompts {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_prompts()
                .enable_completions()
                .build(),
        )
        .with_instructions("Prompts are for trip planning.")
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(ListPromptsResult::with_all_items(vec![Prompt::new(
            "plan_trip",
            Some("Plan a trip around the weather"),
            None,
        )]))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        if request.name != "plan_trip" {
            return Err(ErrorData::invalid_params("no such prompt", None));
        }
        Ok(GetPromptResult::new(vec![PromptMessage::new_text(
            Role::User,
            "Plan a day in London given get_weather.",
        )])
        .into())
    }
}

#[test]
fn capabilities_and_instructions_merge() {
    use rmcp::ServerHandler as _;
    let server = server()
        .0
        .with_instructions("Use one city per call.")
        .with_handler(Prompts);
    let info = server.get_info();
    assert!(info.capabilities.tools.is_some());
    assert!(info.capabilities.prompts.is_some());
    assert!(info.capabilities.completions.is_some());
    assert_eq!(info.server_info.name, "weather-test");
    assert_eq!(
        info.instructions.as_deref(),
        Some("Use one city per call.\n\nPrompts are for trip planning.")
    );
}

#[tokio::test]
async fn the_inner_handler_serves_prompts_beside_the_tools() {
    for generation in [Generation::Legacy, Generation::Modern] {
        let mut client = PipeClient::start(server().0.with_handler(Prompts), generation).await;

        let prompts = client.request("prompts/list", json!({})).await;
        assert_eq!(
            prompts["result"]["prompts"][0]["name"], "plan_trip",
            "{prompts}"
        );
        let prompt = client
            .request("prompts/get", json!({ "name": "plan_trip" }))
            .await;
        assert!(
            prompt["result"]["messages"][0]["content"]["text"]
                .as_str()
                .unwrap()
                .contains("London"),
            "{prompt}"
        );

        let tools = client.tools().await;
        assert_eq!(tools.len(), catalog_tools().len());
        let r = client
            .call("get_weather", json!({ "city": "London" }))
            .await;
        assert_ne!(r["isError"], true, "{r}");
        assert_eq!(texts(&r).len(), 1);

        // Whatever the inner handler does not implement stays unimplemented.
        let resources = client.request("resources/list", json!({})).await;
        assert_eq!(resources["error"]["code"], -32601, "{resources}");
    }
}

#[tokio::test]
async fn discover_advertises_the_merged_capabilities() {
    let mut client = PipeClient::start(server().0.with_handler(Prompts), Generation::Modern).await;
    let discover = client.request("server/discover", json!({})).await;
    let capabilities = &discover["result"]["capabilities"];
    assert!(
        capabilities["tools"].is_object() && capabilities["prompts"].is_object(),
        "{discover}"
    );
}
