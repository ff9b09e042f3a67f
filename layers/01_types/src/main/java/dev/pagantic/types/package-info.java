/**
 * Java types in, Java types out: the JSON Schema of a Java type, and the conversion of validated JSON output back to
 * that type. It sits beside inference, on core only (plus Jackson and the schema generator), so that the band (the
 * tool layer derives {@code @Tool} parameter schemas with it) and orchestrate (structured output to a record) share
 * one generator without importing each other.
 *
 * <h2>Domain concepts</h2>
 * <ul>
 *   <li>{@link dev.pagantic.types.TypeSchemaGenerator}: a Java type to a JSON Schema document (draft 2020-12, nested
 *       maps and lists), read into a core {@link dev.pagantic.core.Schema} by
 *       {@link dev.pagantic.core.Schema#fromJsonSchema(java.util.Map)}. The schema describes the JSON that the
 *       generator's Jackson mapper writes for a value of the type and reads back into it.</li>
 *   <li>{@link dev.pagantic.types.OutputType}: one Java type as structured output: its schema, and
 *       {@code convert(parsedJson)} back to the type. Whatever asks for structured output (a request's output
 *       contract, a loop, the facade's response) goes from the type to the schema with {@code schema()} and back
 *       with {@code convert(...)}: one method each way.</li>
 * </ul>
 *
 * <h2>The JSON form of a type</h2>
 * <ul>
 *   <li>Records and beans are closed objects ({@code additionalProperties: false}) whose properties are named, left
 *       out and ordered as Jackson does: {@code @JsonProperty}, {@code @JsonIgnore}, {@code @JsonNaming},
 *       {@code @JsonPropertyOrder}, then a record's components in declaration order. The order matters: a grammar
 *       makes the model write properties in schema order, so reasoning declared before the answer is generated
 *       first.</li>
 *   <li>Required and nullable follow Jackson's inclusion: by default every property is written, so every property
 *       is required, and an {@code Optional}, {@code OptionalInt}... or {@code @Nullable} (any annotation of that
 *       simple name) one is {@code ["T", "null"]}; OpenAI's strict mode asks for exactly this form. With
 *       {@code NON_NULL}/{@code NON_ABSENT} (the generator's {@code inclusion}, the mapper's default, or
 *       {@code @JsonInclude} on the class or property) such a property may be left out instead and is never null.
 *       Other references are non-null, as everywhere in pagantic.</li>
 *   <li>Enums list the values the mapper writes for their constants (by name with the default mapper, or
 *       {@code @JsonProperty}, {@code @JsonValue}, {@code toString()}): any JSON values.</li>
 *   <li>{@code List}, {@code Set}, {@code Collection} and arrays are arrays; {@code Map<String, V>} is an object
 *       whose {@code additionalProperties} is V's schema; {@code Object} is {@code {}} (any JSON value).</li>
 *   <li>{@code LocalDate} is {@code format: date}; {@code OffsetDateTime}, {@code ZonedDateTime} and {@code Instant}
 *       are {@code format: date-time}; {@code UUID} is {@code format: uuid}; {@code Duration} is
 *       {@code format: duration}. {@code LocalTime}, {@code LocalDateTime} and {@code OffsetTime} match a
 *       {@code pattern} instead, because Jackson writes them without an offset or without zero seconds, which the
 *       RFC 3339 formats require.</li>
 *   <li>{@code BigDecimal}, {@code double}... are numbers; {@code BigInteger}, {@code int}, {@code long}... are
 *       integers (without range bounds: a number out of an {@code int}'s range fails conversion as below);
 *       {@code char} is a string of at most one character; {@code byte[]} is a base64 string.</li>
 *   <li>Descriptions come from {@code @JsonPropertyDescription} and {@code @JsonClassDescription}, the annotations
 *       Jackson users already have; a caller may add its own ({@code Builder.descriptions}), as the tool layer does
 *       for {@code @Param}.</li>
 *   <li>A type used twice is defined once under {@code $defs}; a recursive type refers to itself ({@code $ref}).</li>
 * </ul>
 *
 * <h2>Conversion and failures</h2>
 * Conversion takes the value the constraint pipeline already parsed and validated (maps, lists, strings, numbers), so
 * the output is parsed once. Output that does not convert (a number out of the component's range, a date the
 * grammar let through but {@code java.time} refuses, an unknown property) fails with
 * {@code CONSTRAINT_SCHEMA_INVALID}, retryable like any schema violation, with the JSON pointer of the offending value
 * in the detail {@code pointer}; text that is not JSON fails with {@code CONSTRAINT_JSON_INVALID}. Neither lets a
 * Jackson exception or a {@code NullPointerException} through. A schema that {@code Schema.fromJsonSchema} refuses
 * fails when the {@code OutputType} is created, with {@code CONFIG_INVALID} naming the type.
 *
 * <h2>Why victools jsonschema-generator</h2>
 * Version 5 of victools jsonschema-generator is the first on Jackson 3 and Java 17 (version 4 is on Jackson 2), it
 * writes draft 2020-12, and its Jackson module reads the annotations Jackson users already have; Spring AI's
 * {@code BeanOutputConverter} and the OpenAI Java SDK build their schemas with it too. Jackson's own
 * {@code jackson-module-jsonSchema} (3.x) writes draft 3, which has neither {@code $defs} nor type unions, so it does
 * not fit; LangChain4j writes its schemas with its own reflection code, which is not a library of its own. Where
 * victools' defaults differ from what Jackson writes (every {@code Optional} nullable, offset-less times as
 * {@code format: time}, enums by name whatever the mapper does, alphabetical order) the generator's configuration
 * corrects them, and the tests check the result against what Jackson writes with the networknt validator.
 */
@NullMarked
package dev.pagantic.types;

import org.jspecify.annotations.NullMarked;
