// The schemcp command's own MCP tools are authored schema-first, like any user's.
fn main() -> Result<(), schemcp_build::Error> {
    schemcp_build::compile("schemas")
}
