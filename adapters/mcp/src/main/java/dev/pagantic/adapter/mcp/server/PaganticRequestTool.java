package dev.pagantic.adapter.mcp.server;

import dev.pagantic.adapter.mcp.internal.McpJson;
import dev.pagantic.core.CallContext;
import dev.pagantic.core.Cancellation;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Registration;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.inference.StreamHandler;
import dev.pagantic.orchestrate.facade.FacadeJson;
import dev.pagantic.orchestrate.facade.Mode;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.orchestrate.facade.SystemResponse;
import dev.pagantic.tool.Tool;
import dev.pagantic.tool.ToolSafety;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;

/**
 * The {@code pagantic_request} tool: a {@code SystemRequest} in its JSON wire form ({@link FacadeJson}) run through
 * the {@link Orchestrator}, answered with the {@code SystemResponse}'s JSON. It is how an MCP host reaches pagantic's
 * modes (chat with guarded tools, schema-validated structured output, voting, plans) rather than single tools.
 *
 * <p>Its side effects are {@linkplain ToolSafety#UNKNOWN unknown}: the request may run tools. A failed request (its
 * response carries an error) is a tool error whose text is the response, so the host's model sees the code.
 */
final class PaganticRequestTool {

    /** The tool's name. */
    static final String NAME = "pagantic_request";

    private PaganticRequestTool() {
    }

    static Tool create(Orchestrator orchestrator, Duration timeout) {
        return Tool.builder(ToolDefinition.of(NAME, "Runs a request through pagantic: a conversation in one of its "
                        + "modes (chat with guarded tools, structured output validated against a JSON Schema, plan, "
                        + "redundant voting, adversarial, vote, refine). Answers with the response as JSON: content, "
                        + "structured_output, tool_calls_made, token_usage, error.", parameters()))
                .safety(ToolSafety.UNKNOWN)
                .timeout(timeout)
                .handler((ctx, arguments) -> run(orchestrator, ctx, arguments))
                .build();
    }

    private static String run(Orchestrator orchestrator, CallContext ctx, Map<String, Object> arguments) {
        Cancellation cancellation = new Cancellation();
        SystemResponse response;
        Registration forwarded = ctx.onCancel(() -> cancellation.cancel("the MCP tool call was cancelled"));
        try {
            response = orchestrator.execute(FacadeJson.requestFromJson(McpJson.write(arguments)), StreamHandler.NOOP,
                    cancellation);
        } finally {
            forwarded.close();
        }
        String json = FacadeJson.toJson(response);
        if (!response.isSuccess()) {
            throw PaganticException.of(ErrorCode.TOOL_EXECUTION_FAILED, "the request failed: " + json);
        }
        return json;
    }

    /** The request's wire form, as far as an MCP host needs it (no caller tools, no grammar, no directive). */
    private static Schema parameters() {
        Schema message = Schema.object()
                .required("role", Schema.enumOf("system", "user", "assistant"))
                .required("content", Schema.string())
                .build();
        Schema anyJsonSchema = Schema.fromJsonSchema(Map.of("description", "a JSON Schema (type object)"));
        return Schema.object()
                .required("messages", Schema.arrayOf(message).withMinItems(1)
                        .withDescription("the conversation; the last user message is the prompt"))
                .optional("mode", Schema.enumOf(Arrays.stream(Mode.values()).map(Mode::wireName)
                        .toArray(String[]::new)).withDescription("the orchestration mode; chat by default"))
                .optional("session_id", Schema.string()
                        .withDescription("a conversation id: chat turns of one session build on each other"))
                .optional("output", Schema.object()
                        .optional("schema", anyJsonSchema)
                        .optional("repair_allowed", Schema.bool())
                        .optional("strict_validation", Schema.bool())
                        .description("the output contract; structured and redundant modes need a schema").build())
                .optional("hints", Schema.object()
                        .optional("max_tokens", Schema.integer())
                        .optional("temperature", Schema.number())
                        .optional("top_p", Schema.number())
                        .optional("timeout_ms", Schema.integer())
                        .description("inference settings").build())
                .optional("tools", Schema.arrayOf(Schema.string())
                        .withDescription("the tools the request may use (all registered tools when absent)"))
                .build();
    }
}
