package dev.pagantic.adapter.mcp.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.spec.McpSchema.BlobResourceContents;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.EmbeddedResource;
import io.modelcontextprotocol.spec.McpSchema.ImageContent;
import io.modelcontextprotocol.spec.McpSchema.ResourceLink;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.TextResourceContents;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CallResultsTest {

    @Test
    void textIsGivenAsItIsAndBinaryContentIsDescribedWithItsDecodedSize() {
        CallToolResult result = CallToolResult.builder()
                .addContent(TextContent.builder("first").build())
                .addContent(ImageContent.builder("aGVsbG8=", "image/png").build())
                .addContent(EmbeddedResource.builder(TextResourceContents.builder("file:///a.txt", "inside")
                        .mimeType("text/plain").build()).build())
                .addContent(EmbeddedResource.builder(BlobResourceContents.builder("file:///b.gz", "AAAA")
                        .mimeType("application/gzip").build()).build())
                .addContent(ResourceLink.builder().name("doc").uri("file:///doc.md").description("the doc").build())
                .build();

        assertThat(CallResults.text(result)).isEqualTo(String.join("\n", "first", "[image image/png, 5 bytes]",
                "inside", "[resource file:///b.gz application/gzip, 3 bytes]",
                "[resource link file:///doc.md 'doc': the doc]"));
    }

    @Test
    void structuredContentWithoutContentBlocksIsGivenAsJson() {
        CallToolResult result = new CallToolResult(List.of(), false, Map.of("temperature", 21), null);

        assertThat(CallResults.text(result)).isEqualTo("{\"temperature\":21}");
    }
}
