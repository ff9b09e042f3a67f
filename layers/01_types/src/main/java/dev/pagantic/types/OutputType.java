package dev.pagantic.types;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import java.lang.reflect.Type;
import java.util.Map;
import java.util.Objects;
import tools.jackson.core.JacksonException;
import tools.jackson.core.TreeNode;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JavaType;

/**
 * A Java type as structured output: the JSON Schema the output must follow, and the conversion of the validated
 * output back to the type. One value carries both, so that whatever asks for structured output (a request's output
 * contract, a loop, the facade's response) needs one method to go from the type to the schema and one to go back.
 *
 * <pre>{@code
 * OutputType<Invoice> invoice = OutputType.of(Invoice.class);
 * OutputContract contract = OutputContract.of(invoice.schema());
 * Invoice result = response.structuredOutput(invoice).orElseThrow(); // SystemResponse calls convert
 * }</pre>
 *
 * <p>Conversion takes the parsed JSON value (a Jackson tree, as the constraint pipeline parsed and validated it, or
 * maps, lists, strings, numbers, booleans and {@code null}), so the text is parsed once. Immutable and thread-safe.
 *
 * @param <T> the Java type
 */
public final class OutputType<T> {

    private final JavaType type;
    private final TypeSchemaGenerator generator;
    private final Map<String, Object> jsonSchema;
    private final Schema schema;

    OutputType(TypeSchemaGenerator generator, Type type) {
        this.generator = generator;
        this.type = generator.mapper().constructType(type);
        this.jsonSchema = generator.jsonSchema(type);
        this.schema = TypeSchemaGenerator.read(jsonSchema, this.type.toCanonical());
    }

    /**
     * The output type of a class, with {@link TypeSchemaGenerator#create() the default generator}.
     *
     * @throws PaganticException {@code CONFIG_INVALID} when the type's schema is not accepted
     */
    public static <T> OutputType<T> of(Class<T> type) {
        return TypeSchemaGenerator.create().outputType(Objects.requireNonNull(type, "type"));
    }

    /** The output type of a generic type, such as {@code new TypeReference<List<Invoice>>() {}}. */
    public static <T> OutputType<T> of(TypeReference<T> type) {
        return TypeSchemaGenerator.create().outputType(Objects.requireNonNull(type, "type"));
    }

    /** The Java type, as Jackson resolved it. */
    public JavaType javaType() {
        return type;
    }

    /** The schema the output must follow. */
    public Schema schema() {
        return schema;
    }

    /** The JSON Schema document generated for the type, before {@link Schema#fromJsonSchema(Map)} read it. */
    public Map<String, Object> jsonSchema() {
        return jsonSchema;
    }

    /**
     * Converts a parsed JSON value to the type.
     *
     * @throws PaganticException {@code CONSTRAINT_SCHEMA_INVALID} (retryable) when the value does not fit the type,
     *                           with the JSON pointer of the offending value in the detail {@code pointer}
     */
    public T convert(Object json) {
        try {
            if (json instanceof TreeNode tree) {
                return generator.mapper().treeToValue(tree, type); // walks a parsed tree without writing it out
            }
            return generator.mapper().convertValue(json, type);
        } catch (JacksonException | IllegalArgumentException e) {
            throw notConvertible(e);
        }
    }

    /**
     * Parses JSON text and converts it to the type.
     *
     * @throws PaganticException {@code CONSTRAINT_JSON_INVALID} when the text is not JSON,
     *                           {@code CONSTRAINT_SCHEMA_INVALID} when it does not fit the type
     */
    public T parse(String json) {
        Objects.requireNonNull(json, "json");
        Object tree;
        try {
            tree = generator.mapper().readValue(json, Object.class);
        } catch (JacksonException e) {
            throw PaganticException.builder(ErrorCode.CONSTRAINT_JSON_INVALID,
                    "the output is not JSON: " + e.getOriginalMessage()).detail("type", type.toCanonical()).cause(e)
                    .build();
        }
        return convert(tree);
    }

    private PaganticException notConvertible(RuntimeException e) {
        String pointer = e instanceof JacksonException jackson ? pointer(jackson) : "";
        String reason = e instanceof JacksonException jackson ? jackson.getOriginalMessage() : e.getMessage();
        return PaganticException.builder(ErrorCode.CONSTRAINT_SCHEMA_INVALID,
                        "the output does not convert to " + type.toCanonical()
                                + (pointer.isEmpty() ? "" : " at '" + pointer + "'") + ": " + reason)
                .detail("type", type.toCanonical()).detail("pointer", pointer).cause(e).build();
    }

    private static String pointer(JacksonException e) {
        StringBuilder pointer = new StringBuilder();
        for (JacksonException.Reference reference : e.getPath()) {
            pointer.append('/');
            if (reference.getPropertyName() != null) {
                pointer.append(reference.getPropertyName().replace("~", "~0").replace("/", "~1"));
            } else if (reference.getIndex() >= 0) {
                pointer.append(reference.getIndex());
            }
        }
        return pointer.toString();
    }

    @Override
    public String toString() {
        return "OutputType[" + type.toCanonical() + "]";
    }
}
