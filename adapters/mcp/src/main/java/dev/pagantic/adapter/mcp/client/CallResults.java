package dev.pagantic.adapter.mcp.client;

import dev.pagantic.adapter.mcp.internal.McpJson;
import io.modelcontextprotocol.spec.McpSchema.AudioContent;
import io.modelcontextprotocol.spec.McpSchema.BlobResourceContents;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Content;
import io.modelcontextprotocol.spec.McpSchema.EmbeddedResource;
import io.modelcontextprotocol.spec.McpSchema.ImageContent;
import io.modelcontextprotocol.spec.McpSchema.ResourceContents;
import io.modelcontextprotocol.spec.McpSchema.ResourceLink;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.TextResourceContents;
import java.util.ArrayList;
import java.util.List;

/**
 * The text a model sees for an MCP tool result. Text blocks and text resources are given as they are; binary
 * content (images, audio, blobs) is described, not inlined, since base64 in a prompt only costs context; resource
 * links are named with their URI. A result with structured content and no content blocks is given as its JSON.
 */
final class CallResults {

    private CallResults() {
    }

    static String text(CallToolResult result) {
        List<String> parts = new ArrayList<>();
        if (result.content() != null) {
            for (Content content : result.content()) {
                parts.add(text(content));
            }
        }
        if (parts.isEmpty() && result.structuredContent() != null) {
            parts.add(McpJson.write(result.structuredContent()));
        }
        return String.join("\n", parts);
    }

    static String text(Content content) {
        if (content instanceof TextContent text) {
            return text.text() == null ? "" : text.text();
        }
        if (content instanceof ImageContent image) {
            return "[image " + image.mimeType() + ", " + decodedSize(image.data()) + " bytes]";
        }
        if (content instanceof AudioContent audio) {
            return "[audio " + audio.mimeType() + ", " + decodedSize(audio.data()) + " bytes]";
        }
        if (content instanceof EmbeddedResource embedded) {
            return text(embedded.resource());
        }
        if (content instanceof ResourceLink link) {
            return "[resource link " + link.uri() + (link.name() == null ? "" : " '" + link.name() + "'")
                    + (link.description() == null ? "" : ": " + link.description()) + "]";
        }
        return "[" + content.type() + " content]";
    }

    private static String text(ResourceContents resource) {
        if (resource instanceof TextResourceContents text) {
            return text.text() == null ? "" : text.text();
        }
        String size = resource instanceof BlobResourceContents blob ? ", " + decodedSize(blob.blob()) + " bytes" : "";
        return "[resource " + resource.uri() + (resource.mimeType() == null ? "" : " " + resource.mimeType()) + size
                + "]";
    }

    /** The size of base64 data once decoded, without decoding it. */
    private static long decodedSize(String base64) {
        if (base64 == null) {
            return 0;
        }
        int padding = base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0;
        return Math.max(0, base64.length() / 4L * 3 - padding);
    }
}
