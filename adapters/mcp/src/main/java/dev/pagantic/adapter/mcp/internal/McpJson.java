package dev.pagantic.adapter.mcp.internal;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson3.JacksonMcpJsonMapper;
import java.util.Map;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * The module's JSON: the SDK's Jackson 3 mapper over one plain {@link JsonMapper}, passed to every transport, client
 * and server explicitly rather than found through the SDK's global service lookup. Jackson 3 mappers are immutable.
 */
public final class McpJson {

    /** The plain Jackson mapper. */
    public static final JsonMapper JSON = JsonMapper.builder().build();

    /** The SDK's mapper over {@link #JSON}. */
    public static final McpJsonMapper MCP = new JacksonMcpJsonMapper(JSON);

    private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() {
    };

    private McpJson() {
    }

    /** A value as compact JSON text. */
    public static String write(Object value) {
        return JSON.writeValueAsString(value);
    }

    /** A JSON object's text as a map; Jackson's exception for text that is not one. */
    public static Map<String, Object> readObject(String json) {
        return JSON.readValue(json, OBJECT);
    }
}
