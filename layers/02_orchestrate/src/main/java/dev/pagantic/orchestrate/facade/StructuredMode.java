package dev.pagantic.orchestrate.facade;

import dev.pagantic.constraint.SchemaValidator;
import dev.pagantic.constraint.ValidationReport;
import dev.pagantic.core.Message;
import dev.pagantic.core.Role;
import dev.pagantic.inference.grammar.GbnfGrammar;
import dev.pagantic.orchestrate.loop.LoopSettings;
import dev.pagantic.orchestrate.loop.Outcome;
import dev.pagantic.orchestrate.structured.SpecializedLoop;
import dev.pagantic.orchestrate.structured.SpecializedResult;
import dev.pagantic.validate.RetryPolicy;
import dev.pagantic.validate.RuleValidator;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * {@link Mode#STRUCTURED}: a {@link SpecializedLoop} call. The prompt is the last user message; system messages in the
 * request replace the configured system prompt; with registered tools the call has a tool phase first. The response
 * carries the raw model output as content, the structured output, the validation result, the usage, the tool calls
 * made and, with rules, their pass rate as the confidence (source {@code validation}). An answer cut off at the token
 * limit is a success with finish reason {@code LENGTH}, the partial output as content and no structured output.
 *
 * <p>The loops of the most recent {@value #KEPT_LOOPS} output contracts (with the request's system messages) are kept:
 * a loop works out its grammar and pipeline on its first call, and clients send the same schema again and again, so a
 * repeated contract skips deriving the grammar and building the pipeline. A loop holds no state of a call.
 */
final class StructuredMode implements ModeRunner {

    static final int KEPT_LOOPS = 32;

    private final LoopSettings settings;
    private final RetryPolicy retryPolicy;
    private final @Nullable RuleValidator rules;
    private final SchemaValidator validator;
    private final Map<LoopKey, SpecializedLoop> loops = Collections.synchronizedMap(
            new LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<LoopKey, SpecializedLoop> eldest) {
                    return size() > KEPT_LOOPS;
                }
            });

    /**
     * What makes two requests' loops the same: the output contract, the grammar it loaded (a grammar file read anew
     * for each request may have changed) and the request's system messages.
     */
    private record LoopKey(OutputContract output, Optional<GbnfGrammar> grammar, String system) {
    }

    StructuredMode(LoopSettings settings, RetryPolicy retryPolicy, @Nullable RuleValidator rules,
                   SchemaValidator validator) {
        this.settings = settings;
        this.retryPolicy = retryPolicy;
        this.rules = rules;
        this.validator = validator;
    }

    @Override
    public SystemResponse run(RequestCall call) {
        SystemRequest req = call.request();
        SpecializedLoop loop = loops.computeIfAbsent(new LoopKey(req.output(), call.grammar(), requestSystem(req)), key -> {
            SpecializedLoop.Builder builder = SpecializedLoop.builder().loopSettings(settingsFor(req))
                    .schema(req.output().schema().orElseThrow()).grammar(call.grammar().orElse(null))
                    .retryPolicy(retryPolicy).rules(rules).strictValidation(req.output().strictValidation());
            return asReplica(builder, req).build();
        });
        Outcome<SpecializedResult> outcome = loop.run(call.ctx(), ChatMode.lastUserMessage(req),
                req.hints().settings(), call.options());
        if (outcome.failure().isPresent()) {
            return call.failed(outcome.failure().get(), outcome.usage(), outcome.toolExecutions());
        }
        SpecializedResult result = outcome.orElseThrow();
        ValidationReport report = result.validation();
        SystemResponse.Builder response = call.response()
                .content(report.output())
                .validationResult(ValidationResult.from(report))
                .tokenUsage(outcome.usage())
                .finishReason(result.result().finishReason());
        if (!result.cutOff()) {
            report.readValue(JsonTrees::fromJsonNode).ifPresent(response::structuredOutput);
        }
        outcome.toolExecutions().forEach(e -> response.toolCallMade(ToolCallRecord.from(e)));
        result.rules().ifPresent(checked -> response.confidence(checked.passRate(), ConfidenceSource.VALIDATION));
        return response.build();
    }

    /** The orchestrator's settings with the request's system messages in place of the configured system prompt. */
    LoopSettings settingsFor(SystemRequest req) {
        String requestSystem = requestSystem(req);
        return requestSystem.isEmpty() ? settings
                : settings.withSystemMessage(Optional.of(Message.system(requestSystem)));
    }

    private static String requestSystem(SystemRequest req) {
        return req.messages().stream().filter(m -> m.role() == Role.SYSTEM).map(Message::content)
                .collect(Collectors.joining("\n\n"));
    }

    /** What every call of the request shares, a structured call or a redundant replica: validator and repair. */
    SpecializedLoop.Builder asReplica(SpecializedLoop.Builder loop, SystemRequest req) {
        return loop.validator(validator).repairAllowed(req.output().repairAllowed());
    }
}
