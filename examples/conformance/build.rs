fn main() -> Result<(), schemcp_build::Error> {
    // These tools answer with images, audio and embedded resources besides their text, so their
    // methods return `Output<String>` to attach the extra content blocks.
    schemcp_build::Builder::new()
        .schemas_dir("schemas")
        .output_wrapper("test_image_content")
        .output_wrapper("test_audio_content")
        .output_wrapper("test_embedded_resource")
        .output_wrapper("test_multiple_content_types")
        .compile()
}
