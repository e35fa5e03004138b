//! A server for the official MCP conformance suite (`@modelcontextprotocol/conformance`).
//!
//! The suite's scenarios call fixed tool names (`test_simple_text`, `test_error_handling`,
//! `json_schema_2020_12_tool`, ...). Those tools are authored schema-first: their contracts are in
//! `schemas/`, `build.rs` generates the `Tools` trait and this file implements it. What the suite
//! also tests besides tools (prompts, resources, subscriptions, logging and completion) is written
//! with rmcp directly in [`Extras`] and composed into the same server with
//! [`schemcp_runtime::McpServer::with_handler`].
//!
//! Usage: `conformance --http 127.0.0.1:3000` serves Streamable HTTP at `/mcp` (what the suite
//! tests); without arguments it serves stdio.

// Logging and sampling are deprecated from protocol 2026-07-28 on (SEP-2577), and rmcp marks
// their types so; the suite tests them on 2025-11-25, where they are current.
#![allow(deprecated)]

use std::collections::BTreeSet;
use std::io::IsTerminal;
use std::sync::Mutex;

use rmcp::ErrorData as McpError;
use rmcp::model::{
    CompleteRequestParams, CompleteResult, ContentBlock, ElicitRequestParams,
    GetPromptRequestParams, GetPromptResponse, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, LoggingMessageNotificationParam, PaginatedRequestParams,
    ReadResourceRequestParams, ReadResourceResponse, ServerCapabilities, ServerConfig,
    SetLevelRequestParams, SubscribeRequestParams, UnsubscribeRequestParams,
};
use rmcp::service::{Peer, RequestContext, RoleServer};
use rmcp::{ServerHandler, model::CreateMessageRequestParams};
use schemcp_runtime::{Output, ToolContext, ToolError};
use serde_json::{Value, json};

mod tools {
    schemcp_runtime::include_tools!();
}

use tools::*;

/// A 1x1 PNG and a tiny WAV, as the suite's reference server sends them.
const TEST_IMAGE_BASE64: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
const TEST_AUDIO_BASE64: &str = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

/// rmcp's model types are plain serde types; building them from the JSON the spec shows keeps
/// this file readable next to the suite's expectations.
fn from_json<T: serde::de::DeserializeOwned>(value: Value) -> T {
    serde_json::from_value(value).expect("a well-formed MCP object")
}

fn block(value: Value) -> ContentBlock {
    from_json(value)
}

fn image() -> ContentBlock {
    block(json!({ "type": "image", "data": TEST_IMAGE_BASE64, "mimeType": "image/png" }))
}

async fn log(peer: &Peer<RoleServer>, level: &str, data: &str) {
    let param: LoggingMessageNotificationParam = from_json(json!({
        "level": level,
        "logger": "conformance-test-server",
        "data": data,
    }));
    if let Err(error) = peer.notify_logging_message(param).await {
        tracing::debug!(%error, "could not send a log message");
    }
}

/// Sends `elicitation/create` with `requested_schema` and describes the answer.
async fn elicit(cx: &ToolContext, message: &str, requested_schema: Value) -> String {
    let params: Result<ElicitRequestParams, _> = serde_json::from_value(json!({
        "message": message,
        "requestedSchema": requested_schema,
    }));
    let params = match params {
        Ok(params) => params,
        Err(error) => return format!("Elicitation not supported or error: {error}"),
    };
    match cx.peer().create_elicitation(params).await {
        Ok(result) => {
            let result = serde_json::to_value(result).unwrap_or_default();
            let content = result.get("content").cloned().unwrap_or_else(|| json!({}));
            format!(
                "Elicitation completed: action={}, content={}",
                result["action"].as_str().unwrap_or("unknown"),
                content
            )
        }
        Err(error) => format!("Elicitation not supported or error: {error}"),
    }
}

struct Conformance;

impl Tools for Conformance {
    async fn test_simple_text(
        &self,
        _input: TestSimpleTextInput,
        _cx: &ToolContext,
    ) -> Result<String, ToolError> {
        Ok("This is a simple text response for testing.".into())
    }

    async fn test_image_content(
        &self,
        _input: TestImageContentInput,
        _cx: &ToolContext,
    ) -> Result<Output<String>, ToolError> {
        Ok(Output::new("A 1x1 PNG image.".to_string()).with_content(image()))
    }

    async fn test_audio_content(
        &self,
        _input: TestAudioContentInput,
        _cx: &ToolContext,
    ) -> Result<Output<String>, ToolError> {
        Ok(
            Output::new("A short WAV clip.".to_string()).with_content(block(json!({
                "type": "audio", "data": TEST_AUDIO_BASE64, "mimeType": "audio/wav"
            }))),
        )
    }

    async fn test_embedded_resource(
        &self,
        _input: TestEmbeddedResourceInput,
        _cx: &ToolContext,
    ) -> Result<Output<String>, ToolError> {
        Ok(
            Output::new("An embedded resource.".to_string()).with_content(block(json!({
                "type": "resource",
                "resource": {
                    "uri": "test://embedded-resource",
                    "mimeType": "text/plain",
                    "text": "This is an embedded resource content."
                }
            }))),
        )
    }

    async fn test_multiple_content_types(
        &self,
        _input: TestMultipleContentTypesInput,
        _cx: &ToolContext,
    ) -> Result<Output<String>, ToolError> {
        Ok(Output::new("Multiple content types test:".to_string())
            .with_content(image())
            .with_content(block(json!({
                "type": "resource",
                "resource": {
                    "uri": "test://mixed-content-resource",
                    "mimeType": "application/json",
                    "text": json!({ "test": "data", "value": 123 }).to_string()
                }
            }))))
    }

    async fn test_tool_with_logging(
        &self,
        _input: TestToolWithLoggingInput,
        cx: &ToolContext,
    ) -> Result<String, ToolError> {
        for (i, message) in [
            "Tool execution started",
            "Tool processing data",
            "Tool execution completed",
        ]
        .into_iter()
        .enumerate()
        {
            if i > 0 {
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            }
            log(cx.peer(), "info", message).await;
        }
        Ok("Tool with logging executed successfully".into())
    }

    async fn test_tool_with_progress(
        &self,
        _input: TestToolWithProgressInput,
        cx: &ToolContext,
    ) -> Result<String, ToolError> {
        for (i, step) in [0.0, 50.0, 100.0].into_iter().enumerate() {
            if i > 0 {
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            }
            cx.progress(
                step,
                Some(100.0),
                Some(format!("Completed step {step} of 100")),
            )
            .await;
        }
        let token = cx.request_context().meta.get_progress_token();
        Ok(
            match token.map(|t| serde_json::to_value(t).unwrap_or_default()) {
                Some(Value::String(s)) => s,
                Some(other) => other.to_string(),
                None => "0".into(),
            },
        )
    }

    async fn test_error_handling(
        &self,
        _input: TestErrorHandlingInput,
        _cx: &ToolContext,
    ) -> Result<String, ToolError> {
        Err(ToolError::new(
            "This tool intentionally returns an error for testing",
        ))
    }

    async fn test_sampling(
        &self,
        input: TestSamplingInput,
        cx: &ToolContext,
    ) -> Result<String, ToolError> {
        let params: CreateMessageRequestParams = from_json(json!({
            "messages": [{ "role": "user", "content": { "type": "text", "text": input.prompt } }],
            "maxTokens": 100
        }));
        Ok(match cx.peer().create_message(params).await {
            Ok(result) => {
                let result = serde_json::to_value(result).unwrap_or_default();
                let text = result["content"]["text"]
                    .as_str()
                    .or_else(|| result["message"]["content"]["text"].as_str())
                    .unwrap_or("No response")
                    .to_string();
                format!("LLM response: {text}")
            }
            Err(error) => format!("Sampling not supported or error: {error}"),
        })
    }

    async fn test_elicitation(
        &self,
        input: TestElicitationInput,
        cx: &ToolContext,
    ) -> Result<String, ToolError> {
        let schema = json!({
            "type": "object",
            "properties": { "response": { "type": "string", "description": "User's response" } },
            "required": ["response"]
        });
        let answer = elicit(cx, &input.message, schema).await;
        Ok(answer.replace("Elicitation completed:", "User response:"))
    }

    async fn test_elicitation_sep1034_defaults(
        &self,
        _input: TestElicitationSep1034DefaultsInput,
        cx: &ToolContext,
    ) -> Result<String, ToolError> {
        let schema = json!({
            "type": "object",
            "properties": {
                "name": { "type": "string", "description": "User name", "default": "John Doe" },
                "age": { "type": "integer", "description": "User age", "default": 30 },
                "score": { "type": "number", "description": "User score", "default": 95.5 },
                "status": {
                    "type": "string", "description": "User status",
                    "enum": ["active", "inactive", "pending"], "default": "active"
                },
                "verified": { "type": "boolean", "description": "Verification status", "default": true }
            },
            "required": []
        });
        Ok(elicit(
            cx,
            "Please review and update the form fields with defaults",
            schema,
        )
        .await)
    }

    async fn test_elicitation_sep1330_enums(
        &self,
        _input: TestElicitationSep1330EnumsInput,
        cx: &ToolContext,
    ) -> Result<String, ToolError> {
        let schema = json!({
            "type": "object",
            "properties": {
                "untitledSingle": {
                    "type": "string", "description": "Select one option",
                    "enum": ["option1", "option2", "option3"]
                },
                "titledSingle": {
                    "type": "string", "description": "Select one option with titles",
                    "oneOf": [
                        { "const": "value1", "title": "First Option" },
                        { "const": "value2", "title": "Second Option" },
                        { "const": "value3", "title": "Third Option" }
                    ]
                },
                "legacyEnum": {
                    "type": "string", "description": "Select one option (legacy)",
                    "enum": ["opt1", "opt2", "opt3"],
                    "enumNames": ["Option One", "Option Two", "Option Three"]
                },
                "untitledMulti": {
                    "type": "array", "description": "Select multiple options",
                    "minItems": 1, "maxItems": 3,
                    "items": { "type": "string", "enum": ["option1", "option2", "option3"] }
                },
                "titledMulti": {
                    "type": "array", "description": "Select multiple options with titles",
                    "minItems": 1, "maxItems": 3,
                    "items": {
                        "anyOf": [
                            { "const": "value1", "title": "First Choice" },
                            { "const": "value2", "title": "Second Choice" },
                            { "const": "value3", "title": "Third Choice" }
                        ]
                    }
                }
            },
            "required": []
        });
        Ok(elicit(cx, "Please select options from the enum fields", schema).await)
    }

    async fn json_schema_2020_12_tool(
        &self,
        input: JsonSchema202012ToolInput,
        _cx: &ToolContext,
    ) -> Result<String, ToolError> {
        let args = serde_json::to_string(&input).map_err(|e| ToolError::new(e.to_string()))?;
        Ok(format!("JSON Schema 2020-12 tool called with: {args}"))
    }
}

/// Prompts, resources, subscriptions, logging and completion, written with rmcp directly.
#[derive(Default)]
struct Extras {
    subscriptions: Mutex<BTreeSet<String>>,
}

const WATCHED: &str = "test://watched-resource";

impl ServerHandler for Extras {
    fn get_info(&self) -> ServerConfig {
        let capabilities: ServerCapabilities = from_json(json!({
            "prompts": { "listChanged": true },
            "resources": { "subscribe": true, "listChanged": true },
            "logging": {},
            "completions": {}
        }));
        ServerConfig::new(capabilities)
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, McpError> {
        Ok(from_json(json!({ "prompts": [
            {
                "name": "test_simple_prompt",
                "title": "Simple Test Prompt",
                "description": "A simple prompt without arguments"
            },
            {
                "name": "test_prompt_with_arguments",
                "title": "Prompt With Arguments",
                "description": "A prompt with required arguments",
                "arguments": [
                    { "name": "arg1", "description": "First test argument", "required": true },
                    { "name": "arg2", "description": "Second test argument", "required": true }
                ]
            },
            {
                "name": "test_prompt_with_embedded_resource",
                "title": "Prompt With Embedded Resource",
                "description": "A prompt that includes an embedded resource",
                "arguments": [
                    { "name": "resourceUri", "description": "URI of the resource to embed", "required": true }
                ]
            },
            {
                "name": "test_prompt_with_image",
                "title": "Prompt With Image",
                "description": "A prompt that includes image content"
            }
        ]})))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, McpError> {
        let arg = |name: &str| -> Result<String, McpError> {
            request
                .arguments
                .as_ref()
                .and_then(|args| args.get(name))
                .and_then(Value::as_str)
                .map(str::to_string)
                .ok_or_else(|| McpError::invalid_params(format!("missing argument {name}"), None))
        };
        let text =
            |text: String| json!({ "role": "user", "content": { "type": "text", "text": text } });
        let messages = match request.name.as_str() {
            "test_simple_prompt" => json!([text("This is a simple prompt for testing.".into())]),
            "test_prompt_with_arguments" => json!([text(format!(
                "Prompt with arguments: arg1='{}', arg2='{}'",
                arg("arg1")?,
                arg("arg2")?
            ))]),
            "test_prompt_with_embedded_resource" => json!([
                {
                    "role": "user",
                    "content": {
                        "type": "resource",
                        "resource": {
                            "uri": arg("resourceUri")?,
                            "mimeType": "text/plain",
                            "text": "Embedded resource content for testing."
                        }
                    }
                },
                text("Please process the embedded resource above.".into())
            ]),
            "test_prompt_with_image" => json!([
                {
                    "role": "user",
                    "content": { "type": "image", "data": TEST_IMAGE_BASE64, "mimeType": "image/png" }
                },
                text("Please analyze the image above.".into())
            ]),
            other => {
                return Err(McpError::invalid_params(
                    format!("unknown prompt {other}"),
                    None,
                ));
            }
        };
        Ok(GetPromptResponse::Complete(from_json(
            json!({ "messages": messages }),
        )))
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        Ok(from_json(json!({ "resources": [
            {
                "uri": "test://static-text", "name": "static-text", "title": "Static Text Resource",
                "description": "A static text resource for testing", "mimeType": "text/plain"
            },
            {
                "uri": "test://static-binary", "name": "static-binary", "title": "Static Binary Resource",
                "description": "A static binary resource (image) for testing", "mimeType": "image/png"
            },
            {
                "uri": WATCHED, "name": "watched-resource", "title": "Watched Resource",
                "description": "A resource clients can subscribe to", "mimeType": "text/plain"
            }
        ]})))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, McpError> {
        Ok(from_json(json!({ "resourceTemplates": [
            {
                "uriTemplate": "test://template/{id}/data", "name": "template",
                "title": "Resource Template",
                "description": "A resource template with parameter substitution",
                "mimeType": "application/json"
            }
        ]})))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        let uri = request.uri.as_str();
        let contents = match uri {
            "test://static-text" => json!({
                "uri": uri, "mimeType": "text/plain",
                "text": "This is the content of the static text resource."
            }),
            "test://static-binary" => json!({
                "uri": uri, "mimeType": "image/png", "blob": TEST_IMAGE_BASE64
            }),
            WATCHED => json!({
                "uri": uri, "mimeType": "text/plain", "text": "Watched resource content"
            }),
            _ => match uri
                .strip_prefix("test://template/")
                .and_then(|rest| rest.strip_suffix("/data"))
                .filter(|id| !id.is_empty() && !id.contains('/'))
            {
                Some(id) => json!({
                    "uri": uri, "mimeType": "application/json",
                    "text": json!({ "id": id, "templateTest": true, "data": format!("Data for ID: {id}") }).to_string()
                }),
                None => {
                    return Err(McpError::resource_not_found(
                        format!("unknown resource {uri}"),
                        None,
                    ));
                }
            },
        };
        Ok(ReadResourceResponse::Complete(from_json(
            json!({ "contents": [contents] }),
        )))
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        self.subscriptions
            .lock()
            .unwrap()
            .insert(request.uri.to_string());
        log(
            &context.peer,
            "info",
            &format!("Subscribed to resource: {}", request.uri),
        )
        .await;
        Ok(())
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        self.subscriptions
            .lock()
            .unwrap()
            .remove(request.uri.as_str());
        log(
            &context.peer,
            "info",
            &format!("Unsubscribed from resource: {}", request.uri),
        )
        .await;
        Ok(())
    }

    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        let level = serde_json::to_value(request.level).unwrap_or_default();
        log(
            &context.peer,
            "info",
            &format!("Log level set to: {}", level.as_str().unwrap_or("?")),
        )
        .await;
        Ok(())
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, McpError> {
        // Completes prompt arguments from a small fixed vocabulary, by prefix.
        let words = ["test", "testValue1", "testValue2", "example"];
        let prefix = request.argument.value.as_str();
        let values: Vec<&str> = words
            .into_iter()
            .filter(|w| w.starts_with(prefix))
            .collect();
        Ok(from_json(json!({
            "completion": { "values": values, "total": values.len(), "hasMore": false }
        })))
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // stdout may be the MCP transport: logs go to stderr.
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()),
        )
        .with_ansi(std::io::stderr().is_terminal())
        .init();
    let server = tools::server(Conformance)
        .with_handler(Extras::default())
        .with_info("schemcp-conformance", env!("CARGO_PKG_VERSION"));
    let mut args = std::env::args().skip(1);
    match (args.next().as_deref(), args.next()) {
        (None, _) => schemcp_runtime::serve_stdio(server).await?,
        (Some("--http"), Some(addr)) => schemcp_runtime::serve_http(server, addr.parse()?).await?,
        _ => {
            eprintln!("usage: conformance [--http ADDR]");
            std::process::exit(2);
        }
    }
    Ok(())
}
