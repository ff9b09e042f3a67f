package dev.pagantic.orchestrate.internal;

import dev.pagantic.constraint.ConstraintPipeline;
import dev.pagantic.constraint.SchemaValidator;
import dev.pagantic.constraint.ValidationReport;
import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.FinishReason;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import dev.pagantic.inference.Capability;
import dev.pagantic.inference.InferenceSettings;
import dev.pagantic.inference.ModelInfo;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.StreamHandler;
import dev.pagantic.inference.grammar.GbnfGrammar;
import dev.pagantic.types.OutputType;
import java.util.List;
import java.util.Optional;

/**
 * How orchestrate asks a model for JSON that follows a schema, in one place for the structured turns, the specialized
 * loop, the planner and the multi-model judge:
 * <ul>
 *   <li>the grammar: the caller's, or, when the engine declares {@link Capability#GRAMMAR}, one derived from the
 *       schema, so a constrained decoder cannot leave the schema at all;</li>
 *   <li>the schema itself, when the engine declares {@link Capability#SCHEMA} (a server-side response format);</li>
 *   <li>the settings: the call's default temperature under the configured and the request's settings (which replace
 *       it), and thinking disabled ({@code enable_thinking = false}) over all of them;</li>
 *   <li>then the constraint pipeline (JSON check, repair, enum normalisation, schema validation, grammar
 *       conformance).</li>
 * </ul>
 */
public final class StructuredOutput {

    /** The engine option that structured calls set to {@code false}. */
    public static final String ENABLE_THINKING_OPTION = "enable_thinking";

    private static final InferenceSettings NO_THINKING = InferenceSettings.builder()
            .option(ENABLE_THINKING_OPTION, false).build();

    private StructuredOutput() {
    }

    /** A structured inference's result and the grammar it was generated under, if any. */
    public record Constrained(Result result, Optional<GbnfGrammar> grammar) {
    }

    /** The grammar a structured call sends: the configured one, else the schema's when the engine honours grammars. */
    public static Optional<GbnfGrammar> grammarFor(ModelInfo model, Schema schema, Optional<GbnfGrammar> configured) {
        if (configured.isPresent() || !model.supports(Capability.GRAMMAR)) {
            return configured;
        }
        return Optional.of(GbnfGrammar.fromSchema(schema));
    }

    /**
     * The settings of a structured call: the call's default temperature, then the given settings over it (the
     * configured and the request's, already layered), then thinking disabled.
     */
    public static InferenceSettings settings(double defaultTemperature, InferenceSettings given) {
        return InferenceSettings.builder().temperature(defaultTemperature).build().overrideWith(given)
                .overrideWith(NO_THINKING);
    }

    /**
     * Runs one structured inference through the call.
     *
     * @param grammar  the grammar to send (see {@link #grammarFor}); empty for none
     * @param settings the call's settings (see {@link #settings})
     */
    public static Constrained infer(InferenceCall call, CallContext ctx, List<Message> messages, Schema schema,
                                    Optional<GbnfGrammar> grammar, InferenceSettings settings, StreamHandler stream) {
        Request.Builder request = Request.builder().messages(messages).settings(settings)
                .grammar(grammar.orElse(null));
        if (call.model().supports(Capability.SCHEMA)) {
            request.schema(schema);
        }
        return new Constrained(call.infer(ctx, request.build(), stream), grammar);
    }

    /**
     * The validated output converted to a Java type, from the tree the pipeline parsed (the output is parsed once).
     *
     * @throws PaganticException {@code CONSTRAINT_JSON_INVALID}, not retryable, when the output was cut off at the
     *                           token limit (the same limit would cut it again); {@code CONSTRAINT_SCHEMA_INVALID}
     *                           when it does not convert to the type
     */
    public static <T> T convert(OutputType<T> type, ValidationReport report, Result result) {
        if (report.isCutOff()) {
            throw PaganticException.builder(ErrorCode.CONSTRAINT_JSON_INVALID, "the structured output was cut off "
                            + "at the token limit after " + result.usage().outputTokens() + " tokens, so it is no "
                            + type.javaType().toCanonical() + ": raise maxTokens").retryable(false)
                    .detail("finish_reason", FinishReason.LENGTH.wireName()).build();
        }
        return report.readValue(type::convert);
    }

    /** The constraint pipeline for the schema and the grammar the output was generated under. */
    public static ConstraintPipeline pipeline(Schema schema, Optional<GbnfGrammar> grammar, boolean repairAllowed,
                                              boolean strict, SchemaValidator validator) {
        ConstraintPipeline.Builder pipeline = ConstraintPipeline.builder().schema(schema).repairAllowed(repairAllowed)
                .strict(strict).validator(validator);
        grammar.ifPresent(pipeline::grammar);
        return pipeline.build();
    }
}
