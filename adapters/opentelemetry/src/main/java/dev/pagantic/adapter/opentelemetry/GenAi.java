package dev.pagantic.adapter.opentelemetry;

import io.opentelemetry.api.common.AttributeKey;
import java.util.List;

/**
 * The attribute names this adapter writes: the GenAI semantic conventions' (v1.41.0) and pagantic's own, under the
 * {@code pagantic.} prefix. One place, so that the documentation's attribute table and the code agree.
 */
final class GenAi {

    /** The version of the OpenTelemetry semantic conventions followed. */
    static final String SEMCONV_VERSION = "1.41.0";

    static final AttributeKey<String> OPERATION_NAME = AttributeKey.stringKey("gen_ai.operation.name");
    static final AttributeKey<String> PROVIDER_NAME = AttributeKey.stringKey("gen_ai.provider.name");
    static final AttributeKey<String> REQUEST_MODEL = AttributeKey.stringKey("gen_ai.request.model");
    static final AttributeKey<String> RESPONSE_MODEL = AttributeKey.stringKey("gen_ai.response.model");
    static final AttributeKey<Long> REQUEST_MAX_TOKENS = AttributeKey.longKey("gen_ai.request.max_tokens");
    static final AttributeKey<Double> REQUEST_TEMPERATURE = AttributeKey.doubleKey("gen_ai.request.temperature");
    static final AttributeKey<Double> REQUEST_TOP_P = AttributeKey.doubleKey("gen_ai.request.top_p");
    static final AttributeKey<Long> REQUEST_SEED = AttributeKey.longKey("gen_ai.request.seed");
    static final AttributeKey<List<String>> REQUEST_STOP_SEQUENCES =
            AttributeKey.stringArrayKey("gen_ai.request.stop_sequences");
    static final AttributeKey<List<String>> RESPONSE_FINISH_REASONS =
            AttributeKey.stringArrayKey("gen_ai.response.finish_reasons");
    static final AttributeKey<Long> USAGE_INPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.input_tokens");
    static final AttributeKey<Long> USAGE_OUTPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.output_tokens");
    static final AttributeKey<String> CONVERSATION_ID = AttributeKey.stringKey("gen_ai.conversation.id");
    static final AttributeKey<String> OUTPUT_TYPE = AttributeKey.stringKey("gen_ai.output.type");
    static final AttributeKey<String> WORKFLOW_NAME = AttributeKey.stringKey("gen_ai.workflow.name");
    static final AttributeKey<String> TOOL_NAME = AttributeKey.stringKey("gen_ai.tool.name");
    static final AttributeKey<String> TOOL_CALL_ID = AttributeKey.stringKey("gen_ai.tool.call.id");
    static final AttributeKey<String> TOOL_TYPE = AttributeKey.stringKey("gen_ai.tool.type");
    static final AttributeKey<String> TOKEN_TYPE = AttributeKey.stringKey("gen_ai.token.type");
    static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");

    /** Opt-in content (off by default, as the conventions advise: it may hold sensitive data). */
    static final AttributeKey<String> INPUT_MESSAGES = AttributeKey.stringKey("gen_ai.input.messages");
    static final AttributeKey<String> OUTPUT_MESSAGES = AttributeKey.stringKey("gen_ai.output.messages");
    static final AttributeKey<String> TOOL_CALL_ARGUMENTS = AttributeKey.stringKey("gen_ai.tool.call.arguments");
    static final AttributeKey<String> TOOL_CALL_RESULT = AttributeKey.stringKey("gen_ai.tool.call.result");

    static final AttributeKey<String> REQUEST_ID = AttributeKey.stringKey("pagantic.request.id");
    static final AttributeKey<String> MODE = AttributeKey.stringKey("pagantic.mode");
    static final AttributeKey<String> LIFECYCLE_STATE = AttributeKey.stringKey("pagantic.lifecycle.state");
    static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("pagantic.attempt");
    static final AttributeKey<String> FINISH_REASON = AttributeKey.stringKey("pagantic.finish_reason");
    static final AttributeKey<Double> CONFIDENCE = AttributeKey.doubleKey("pagantic.confidence");
    static final AttributeKey<String> CONFIDENCE_SOURCE = AttributeKey.stringKey("pagantic.confidence.source");
    static final AttributeKey<List<String>> VALIDATION_STEPS = AttributeKey.stringArrayKey("pagantic.validation.steps");
    static final AttributeKey<Long> VALIDATION_PASSED = AttributeKey.longKey("pagantic.validation.passed");
    static final AttributeKey<Long> VALIDATION_FAILED = AttributeKey.longKey("pagantic.validation.failed");
    static final AttributeKey<Long> REPAIR_ATTEMPTS = AttributeKey.longKey("pagantic.validation.repair_attempts");
    static final AttributeKey<Double> COST = AttributeKey.doubleKey("pagantic.cost");
    static final AttributeKey<String> STEP_NAME = AttributeKey.stringKey("pagantic.step.name");
    static final AttributeKey<String> FROM_STATE = AttributeKey.stringKey("pagantic.lifecycle.from");
    static final AttributeKey<String> TO_STATE = AttributeKey.stringKey("pagantic.lifecycle.to");
    static final AttributeKey<String> REASON = AttributeKey.stringKey("pagantic.lifecycle.reason");

    /** The span event of a lifecycle transition, on the request's span. */
    static final String TRANSITION_EVENT = "pagantic.lifecycle_transition";

    private GenAi() {
    }
}
