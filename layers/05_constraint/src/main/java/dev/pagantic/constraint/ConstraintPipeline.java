package dev.pagantic.constraint;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import dev.pagantic.inference.grammar.GbnfGrammar;
import dev.pagantic.inference.grammar.GrammarMatch;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * The post-inference validation pipeline of the specification ("json.Valid, then RepairJSON if invalid, then
 * NormalizeEnumValues, and finally SchemaValidator"), as one reusable component. Each step runs only when needed, and
 * the {@link ValidationReport} records which ran:
 * <ol>
 *   <li>{@link PipelineStep#GRAMMAR_CHECK}, when a grammar is configured: the output is matched against the grammar
 *       it was generated under. An output that does not conform as produced still conforms if the final JSON (after
 *       repair and normalisation) does; otherwise a {@code grammar} violation is reported.</li>
 *   <li>{@link PipelineStep#JSON_CHECK}: strict JSON validity.</li>
 *   <li>{@link PipelineStep#REPAIR}, only for invalid JSON: {@link JsonRepair}. With repair disallowed, or when the
 *       output cannot be repaired, processing fails with {@code CONSTRAINT_JSON_INVALID}.</li>
 *   <li>{@link PipelineStep#ENUM_NORMALIZATION}, only when the schema declares enum values:
 *       {@link EnumNormalizer}.</li>
 *   <li>{@link PipelineStep#SCHEMA_VALIDATION}: {@link SchemaValidator}.</li>
 * </ol>
 * In lenient mode (the default) the remaining violations are returned in the report; in strict mode they are thrown
 * ({@code CONSTRAINT_GRAMMAR_REJECTED}, {@code CONSTRAINT_ENUM_UNRECOGNIZED} or {@code CONSTRAINT_SCHEMA_INVALID}).
 *
 * <pre>{@code
 * ConstraintPipeline pipeline = ConstraintPipeline.builder()
 *         .schema(schema)
 *         .grammar(GbnfGrammar.fromSchema(schema))
 *         .build();
 * ValidationReport report = pipeline.process(result.content());
 * if (report.valid()) { use(report.json()); }
 * }</pre>
 *
 * <p>Immutable and thread-safe; build one per schema and reuse it.
 */
public final class ConstraintPipeline {

    private final Schema schema;
    private final boolean repairAllowed;
    private final Optional<GrammarConformance> grammar;
    private final boolean strict;
    private final JsonRepair repair;
    private final SchemaValidator validator;
    private final @Nullable SchemaLocations enumLocations; // null: the schema lists no string values, nothing to normalise

    private ConstraintPipeline(Builder builder) {
        this.schema = builder.schema;
        this.repairAllowed = builder.repairAllowed;
        this.grammar = Optional.ofNullable(builder.grammar).map(GrammarConformance::of);
        this.strict = builder.strict;
        this.repair = builder.repair;
        this.validator = builder.validator != null ? builder.validator : new SchemaValidator();
        this.enumLocations = EnumNormalizer.hasEnums(schema) ? new SchemaLocations(schema) : null;
    }

    /** Starts a pipeline; a schema is required. */
    public static Builder builder() {
        return new Builder();
    }

    /** The schema outputs are validated against. */
    public Schema schema() {
        return schema;
    }

    /** Whether invalid JSON is repaired (default) rather than refused. */
    public boolean repairAllowed() {
        return repairAllowed;
    }

    /** Whether remaining violations are thrown rather than reported. */
    public boolean strict() {
        return strict;
    }

    /** The grammar outputs were generated under, if configured. */
    public Optional<GbnfGrammar> grammar() {
        return grammar.map(GrammarConformance::grammar);
    }

    /**
     * Runs the pipeline on one model output.
     *
     * @throws PaganticException {@code CONSTRAINT_JSON_INVALID} when the output is not JSON and cannot be repaired
     *                           (retryable), or may not be (not retryable: a structural error is then terminal); in
     *                           strict mode, the code of the remaining violations
     */
    public ValidationReport process(String output) {
        Objects.requireNonNull(output, "output");
        List<PipelineStep> steps = new ArrayList<>();
        Optional<GrammarMatch> grammarMatch = Optional.empty();
        if (grammar.isPresent()) {
            steps.add(PipelineStep.GRAMMAR_CHECK);
            grammarMatch = Optional.of(grammar.get().check(output));
        }

        steps.add(PipelineStep.JSON_CHECK);
        String json = output;
        List<RepairFix> repairs = List.of();
        JsonNode parsed = JsonText.readIfValid(output); // kept for validation when no later step changes the text
        if (parsed == null) {
            if (!repairAllowed) {
                throw terminal(output);
            }
            steps.add(PipelineStep.REPAIR);
            RepairResult repaired = repair.repair(output);
            json = repaired.json();
            repairs = repaired.fixes();
        }

        List<EnumChange> enumChanges = List.of();
        if (enumLocations != null) {
            steps.add(PipelineStep.ENUM_NORMALIZATION);
            // Output parsed as it came with exact enum values (what a grammar makes a model write) needs no second
            // read of the text: the parse is shared with validation and, after it, conversion to a Java type.
            if (parsed == null || !EnumNormalizer.isExact(parsed, enumLocations)) {
                EnumNormalization normalization = EnumNormalizer.normalizeChecked(json, enumLocations);
                json = normalization.json();
                enumChanges = normalization.changes();
            }
        }

        steps.add(PipelineStep.SCHEMA_VALIDATION);
        JsonNode value = parsed != null && json.equals(output) ? parsed : JsonText.read(json);
        List<Violation> violations = new ArrayList<>();
        if (grammarMatch.isPresent() && !grammarMatch.get().accepted()
                && (json.equals(output) || !grammar.get().conforms(json))) {
            violations.add(GrammarConformance.violation(grammarMatch.get()));
        }
        violations.addAll(validator.violations(value, schema));

        ValidationReport report = new ValidationReport(output, json, value, steps, repairs, enumChanges, violations);
        return strict ? report.requireValid() : report;
    }

    /**
     * The failure for output that is not JSON when repair is not allowed: {@code CONSTRAINT_JSON_INVALID} with the
     * position, and not retryable, since the contract makes a structural error terminal (seed 001:
     * "When false, any structural error is terminal").
     */
    private static PaganticException terminal(String output) {
        PaganticException invalid;
        try {
            JsonText.read(output);
            invalid = JsonText.invalid(output, 0, "not one JSON value", null); // unreachable: readIfValid said no
        } catch (PaganticException located) {
            invalid = located;
        }
        return PaganticException.builder(invalid.code(), invalid.getMessage() + " (repair is not allowed, so a "
                        + "structural error is terminal)").details(invalid.details()).retryable(false)
                .cause(invalid.getCause()).build();
    }

    /** Builds a {@link ConstraintPipeline}; validated at {@link #build()}. */
    public static final class Builder {
        private @Nullable Schema schema;
        private boolean repairAllowed = true;
        private @Nullable GbnfGrammar grammar;
        private boolean strict;
        private JsonRepair repair = JsonRepair.standard();
        private @Nullable SchemaValidator validator;

        private Builder() {
        }

        /** The schema outputs must conform to (required). */
        public Builder schema(Schema schema) {
            this.schema = schema;
            return this;
        }

        /** Whether invalid JSON may be repaired (default {@code true}); when not, it fails. */
        public Builder repairAllowed(boolean allowed) {
            this.repairAllowed = allowed;
            return this;
        }

        /** The grammar outputs were generated under, to check their conformance (optional). */
        public Builder grammar(GbnfGrammar grammar) {
            this.grammar = Objects.requireNonNull(grammar, "grammar");
            return this;
        }

        /** Whether remaining violations are thrown (default {@code false}: they are reported). */
        public Builder strict(boolean strict) {
            this.strict = strict;
            return this;
        }

        /** The repairer to use (default {@link JsonRepair#standard()}). */
        public Builder repair(JsonRepair repair) {
            this.repair = Objects.requireNonNull(repair, "repair");
            return this;
        }

        /** A validator to share, with its cache of compiled schemas (default: a new one per pipeline). */
        public Builder validator(SchemaValidator validator) {
            this.validator = Objects.requireNonNull(validator, "validator");
            return this;
        }

        /** The pipeline; {@code CONFIG_SCHEMA_REQUIRED} without a schema. */
        public ConstraintPipeline build() {
            if (schema == null) {
                throw PaganticException.of(ErrorCode.CONFIG_SCHEMA_REQUIRED,
                        "the constraint pipeline needs a schema to validate against");
            }
            return new ConstraintPipeline(this);
        }
    }
}
