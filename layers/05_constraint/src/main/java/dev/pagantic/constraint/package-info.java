/**
 * Layer 05, output enforcement (planned; not yet implemented): making model output conform to the structure a caller
 * asked for.
 *
 * <h2>Domain concepts</h2>
 * Constraints are layered and compose in one call:
 * <ol>
 *   <li>a GBNF grammar constrains generation at the decoder (the grammar language itself belongs to the inference
 *       layer, {@code dev.pagantic.inference.grammar}; this layer uses it, for example to check that an output
 *       conforms to a grammar);</li>
 *   <li>JSON repair fixes common breakage (missing braces, unescaped quotes, trailing text) when the caller's output
 *       contract allows repair;</li>
 *   <li>enum normalisation maps near-miss values (case, whitespace) onto the schema's canonical enum values;</li>
 *   <li>JSON Schema validation (networknt json-schema-validator) checks the result against the
 *       {@link dev.pagantic.core.Schema}, reporting the path of every violation.</li>
 * </ol>
 * The validation pipeline applies each step only when needed: valid JSON skips repair.
 *
 * <h2>Failures</h2>
 * This layer emits the ConstraintFailure codes: {@code CONSTRAINT_GRAMMAR_REJECTED},
 * {@code CONSTRAINT_SCHEMA_INVALID}, {@code CONSTRAINT_JSON_INVALID} and {@code CONSTRAINT_ENUM_UNRECOGNIZED}. They
 * are retryable: orchestration may repair or re-infer.
 *
 * <h2>Contract</h2>
 * Part of the flat band: depends on core and inference only (plus Jackson and the schema validator), never on
 * another band layer or on orchestrate. Orchestrate's structured-output path and the VALIDATE state of the lifecycle
 * call into it.
 */
package dev.pagantic.constraint;
