fn main() -> Result<(), schemcp_build::Error> {
    schemcp_build::compile("schemas")
}
