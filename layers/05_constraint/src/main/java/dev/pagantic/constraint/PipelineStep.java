package dev.pagantic.constraint;

/** The steps of the {@link ConstraintPipeline}, in the order they run; each runs only when needed. */
public enum PipelineStep {
    /** The output was checked against the grammar it was generated under (only when a grammar is configured). */
    GRAMMAR_CHECK,
    /** The output was checked for strict JSON validity (always). */
    JSON_CHECK,
    /** The output was repaired (only when it was not valid JSON and repair is allowed). */
    REPAIR,
    /** Enum values were normalised (only when the schema declares enum values). */
    ENUM_NORMALIZATION,
    /** The JSON was validated against the schema (always, once the output is JSON). */
    SCHEMA_VALIDATION
}
