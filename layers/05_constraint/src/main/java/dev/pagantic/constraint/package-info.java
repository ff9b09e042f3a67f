/**
 * Layer 05, output enforcement: making model output conform to the structure a caller asked for.
 *
 * <h2>Domain concepts</h2>
 * Constraints are layered and compose in one call (seed 000's {@code ChatStructured}):
 * <ol>
 *   <li>a GBNF grammar constrains generation at the decoder. The grammar language belongs to the inference layer
 *       ({@code dev.pagantic.inference.grammar}); this layer only applies it to outputs:
 *       {@link dev.pagantic.constraint.GrammarConformance} raises {@code CONSTRAINT_GRAMMAR_REJECTED};</li>
 *   <li>{@link dev.pagantic.constraint.JsonRepair} (the seed's {@code RepairJSON}) fixes what models really emit:
 *       code fences, prose, {@code <think>} blocks and a byte order mark around the JSON; truncation; trailing
 *       commas; single quotes; unquoted keys; unescaped quotes and raw newlines in strings; Python literals;</li>
 *   <li>{@link dev.pagantic.constraint.EnumNormalizer} (the seed's {@code NormalizeEnumValues}) maps near-miss enum
 *       values (case, surrounding whitespace) onto the schema's canonical values, at any depth and through
 *       {@code $ref}, {@code allOf}, {@code anyOf} and {@code oneOf};</li>
 *   <li>{@link dev.pagantic.constraint.SchemaValidator} checks the result against the
 *       {@link dev.pagantic.core.Schema}'s whole JSON Schema document with networknt json-schema-validator (draft
 *       2020-12, {@code format} asserted), reporting the JSON path of every violation. It is where every keyword the
 *       grammar does not carry is enforced ({@code multipleOf}, {@code uniqueItems}, bounds of non-integers,
 *       {@code not}, {@code if}/{@code then}/{@code else}, {@code dependentRequired}, {@code contains},
 *       {@code patternProperties}, {@code unevaluated*}, the formats other than date, time, date-time and uuid...),
 *       and it checks the grammar-enforced ones again.</li>
 * </ol>
 * {@link dev.pagantic.constraint.ConstraintPipeline} runs them in the seed's order ("json.Valid, then RepairJSON if
 * invalid, then NormalizeEnumValues, and finally SchemaValidator"), each step only when needed, and returns a
 * {@link dev.pagantic.constraint.ValidationReport} of the steps that ran, the fixes applied, the enum values
 * rewritten, the final JSON (text and parsed) and the violations that remain; orchestrate turns it into a system
 * response's validation result and the event log's record of every repair.
 *
 * <h2>Design decisions</h2>
 * <ul>
 *   <li><b>Repair never guesses.</b> Valid JSON (checked first with a strict parser) is returned byte for byte.
 *       Truncated output has its strings and containers closed, and a member whose value had not started or not
 *       completed is dropped: no value is ever invented, so a truncated object then either passes the schema or
 *       fails with {@code CONSTRAINT_SCHEMA_INVALID} naming the missing field. Where the intent is unclear (a missing
 *       comma, a malformed number, an invalid escape) repair fails with {@code CONSTRAINT_JSON_INVALID} and the
 *       offset, line and column. Every repaired result is checked strictly before it is returned, which makes repair
 *       idempotent. Nesting is limited to {@value dev.pagantic.constraint.JsonRepair#DEFAULT_MAX_DEPTH} levels, so
 *       hostile input fails cleanly rather than overflowing the stack.</li>
 *   <li><b>A scanner of our own.</b> Lenient parser features (Jackson's) cover comments and single quotes but not
 *       truncation, prose, fences or unescaped quotes, and they re-serialise, which would change number text and
 *       whitespace. The repair scanner copies every valid token's text, so nothing that was right changes.</li>
 *   <li><b>Enum normalisation splices.</b> Only the rewritten string tokens change; number text ({@code 1.10},
 *       {@code 1e2}, {@code 12345678901234567890}), key order and whitespace are preserved. An ambiguous value (two
 *       enum values equal ignoring case) or an unknown one is left for the validator, which reports
 *       {@code CONSTRAINT_ENUM_UNRECOGNIZED}.</li>
 *   <li><b>The document, all of it.</b> Schemas are validated through {@link dev.pagantic.core.Schema#toJsonSchema()},
 *       the document as the caller wrote it (objects built in code are closed, as their grammar is). Compiled schemas
 *       are cached per schema value (whose hash is computed once) in a bounded, thread-safe cache. Formats are
 *       assertions, with the URI and duration checks made exact where networknt is lenient
 *       ({@code StrictFormats}); the JSON Schema Test Suite runs in the build to hold the validator to the
 *       specification.</li>
 *   <li><b>Paths</b> are JSON paths, {@code $.items[0].status}, for violations and enum changes alike; a missing
 *       required property is reported at the path it should have.</li>
 *   <li><b>Error codes</b>: a grammar rejection wins, then "every violation is an enum violation" gives
 *       {@code CONSTRAINT_ENUM_UNRECOGNIZED}, anything else {@code CONSTRAINT_SCHEMA_INVALID}. All four constraint
 *       codes are retryable (orchestration may repair or re-infer), with one exception from the contract (seed 001,
 *       "When false, any structural error is terminal"): output that is not JSON when repair is not allowed is
 *       {@code CONSTRAINT_JSON_INVALID} marked not retryable.</li>
 *   <li><b>Grammar conformance in the pipeline</b> is checked on the output as produced; an output cut off by the
 *       token limit (which never conforms) still conforms if its repaired JSON does.</li>
 *   <li><b>The parsed value</b> is a Jackson {@code JsonNode} with exact numbers (BigDecimal, trailing zeros kept);
 *       the report hands out deep copies so that it stays immutable.</li>
 *   <li><b>Cut-off output is not processed.</b> Output cut off at the token limit gets
 *       {@code ValidationReport.cutOff} (no steps, one {@code cut-off} violation) from its caller: repairing a prefix
 *       would invent the rest.</li>
 *   <li><b>Lenient by default.</b> The pipeline reports remaining violations; {@code strict(true)} throws them.
 *       Invalid JSON that cannot (or may not) be repaired always throws {@code CONSTRAINT_JSON_INVALID}, since there
 *       is no JSON to report on.</li>
 * </ul>
 *
 * <h2>Contract</h2>
 * Part of the flat band: depends on core and inference only (plus Jackson and the schema validator), never on
 * another band layer or on orchestrate. Every public type is immutable and thread-safe; no static mutable state.
 */
@NullMarked
package dev.pagantic.constraint;

import org.jspecify.annotations.NullMarked;
