package dev.pagantic.constraint;

import com.networknt.schema.Error;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.path.NodePath;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Validates JSON against a {@link Schema} with networknt json-schema-validator (draft 2020-12), through the schema's
 * JSON Schema document ({@link Schema#toJsonSchema()}), every keyword of it: those the grammar derived from the
 * schema enforces at the decoder and those it leaves to validation alike. {@code format} is an assertion here (draft
 * 2020-12 makes it an annotation by default): a {@code "format": "email"} output that is no e-mail address is a
 * violation, not a remark.
 *
 * <p>Compiled schemas are cached per {@link Schema} value (a schema's hash is computed once, when it is made), in a
 * bounded least-recently-used cache, so validating many outputs against the same schema compiles it once, and the
 * same schema instance again is found without even a map lookup. Thread-safe: one validator can serve a whole
 * application.
 *
 * <pre>{@code
 * SchemaValidator validator = new SchemaValidator();
 * List<Violation> violations = validator.violations("{\"sentiment\": \"great\"}", schema);
 * validator.validate(json, schema); // or throw CONSTRAINT_SCHEMA_INVALID / CONSTRAINT_ENUM_UNRECOGNIZED
 * }</pre>
 */
public final class SchemaValidator {

    /** The default number of compiled schemas kept. */
    public static final int DEFAULT_CACHE_SIZE = 256;

    private final SchemaRegistry registry = SchemaRegistry.withDefaultDialect(StrictFormats.draft202012(),
            builder -> builder.schemaRegistryConfig(SchemaRegistryConfig.builder().formatAssertionsEnabled(true)
                    .build()));
    private final Map<Schema, com.networknt.schema.Schema> cache;
    private final int cacheSize;
    private volatile @Nullable Compiled last; // the schema compiled or found last, looked up by identity

    private record Compiled(Schema schema, com.networknt.schema.Schema compiled) {
    }

    /** A validator caching up to {@link #DEFAULT_CACHE_SIZE} compiled schemas. */
    public SchemaValidator() {
        this(DEFAULT_CACHE_SIZE);
    }

    /** A validator caching up to {@code cacheSize} compiled schemas (at least 1). */
    public SchemaValidator(int cacheSize) {
        if (cacheSize < 1) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "cacheSize must be at least 1: " + cacheSize);
        }
        this.cacheSize = cacheSize;
        this.cache = new LinkedHashMap<>(16, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<Schema, com.networknt.schema.Schema> eldest) {
                return size() > SchemaValidator.this.cacheSize;
            }
        };
    }

    /**
     * The violations of a JSON text against the schema, in the validator's order; empty when it conforms.
     *
     * @throws PaganticException {@code CONSTRAINT_JSON_INVALID} when the text is not valid JSON
     */
    public List<Violation> violations(String json, Schema schema) {
        Objects.requireNonNull(json, "json");
        return violations(JsonText.read(json), schema);
    }

    /** The violations of a parsed JSON value against the schema; empty when it conforms. */
    public List<Violation> violations(JsonNode value, Schema schema) {
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(schema, "schema");
        List<Violation> violations = new ArrayList<>();
        for (Error error : compiled(schema).validate(value)) {
            violations.add(toViolation(error));
        }
        return List.copyOf(violations);
    }

    /**
     * Throws unless the JSON text conforms: {@code CONSTRAINT_ENUM_UNRECOGNIZED} when every violation is an enum
     * violation, {@code CONSTRAINT_SCHEMA_INVALID} otherwise (details: {@code paths}, {@code violations}), and
     * {@code CONSTRAINT_JSON_INVALID} when it is not JSON at all.
     */
    public void validate(String json, Schema schema) {
        List<Violation> violations = violations(json, schema);
        if (!violations.isEmpty()) {
            throw failure(violations);
        }
    }

    /** The number of compiled schemas currently cached. */
    public int cachedSchemas() {
        synchronized (cache) {
            return cache.size();
        }
    }

    /**
     * The exception for a non-empty list of violations: {@code CONSTRAINT_GRAMMAR_REJECTED} if any is a grammar
     * rejection, else {@code CONSTRAINT_ENUM_UNRECOGNIZED} if all are enum violations, else
     * {@code CONSTRAINT_SCHEMA_INVALID}. Details: {@code paths} and {@code violations} (as {@code path: message}).
     */
    static PaganticException failure(List<Violation> violations) {
        ErrorCode code;
        if (violations.stream().anyMatch(v -> v.keyword().equals(Violation.GRAMMAR))) {
            code = ErrorCode.CONSTRAINT_GRAMMAR_REJECTED;
        } else if (violations.stream().allMatch(Violation::isEnum)) {
            code = ErrorCode.CONSTRAINT_ENUM_UNRECOGNIZED;
        } else {
            code = ErrorCode.CONSTRAINT_SCHEMA_INVALID;
        }
        List<String> paths = violations.stream().map(Violation::path).distinct().toList();
        List<String> messages = violations.stream().map(Violation::toString).toList();
        return PaganticException.builder(code, "output violates its constraints: " + String.join("; ", messages))
                .detail("paths", paths).detail("violations", messages).build();
    }

    private com.networknt.schema.Schema compiled(Schema schema) {
        Compiled last = this.last;
        if (last != null && last.schema() == schema) {
            return last.compiled(); // the common case: the same schema object again, without hashing the whole tree
        }
        com.networknt.schema.Schema compiled = cachedOrCompiled(schema);
        this.last = new Compiled(schema, compiled);
        return compiled;
    }

    private com.networknt.schema.Schema cachedOrCompiled(Schema schema) {
        synchronized (cache) {
            com.networknt.schema.Schema cached = cache.get(schema);
            if (cached != null) {
                return cached;
            }
        }
        // Without its $id: the registry would remember the schema under it, and resolve a later schema's references
        // against an earlier one that used the same $id. References are local, so the base URI is not needed.
        // Without its $schema: a draft-07 document the reader accepted means the same under draft 2020-12, whose
        // dialect (with the strict and OpenAPI formats) validates every schema.
        ObjectNode document = JsonText.MAPPER.valueToTree(schema.toJsonSchema());
        document.remove("$id");
        document.remove("$schema");
        com.networknt.schema.Schema compiled = registry.getSchema(document);
        synchronized (cache) {
            com.networknt.schema.Schema existing = cache.putIfAbsent(schema, compiled);
            return existing != null ? existing : compiled;
        }
    }

    /** The instance location as a JSON path, {@code $.items[0].status}, as {@link EnumChange} paths are written. */
    private static String jsonPath(@Nullable NodePath location) {
        String path = "$";
        if (location == null) {
            return path;
        }
        for (int i = 0; i < location.getNameCount(); i++) {
            Object element = location.getElement(i);
            path = element instanceof Integer index ? path + "[" + index + "]"
                    : EnumNormalizer.childPath(path, String.valueOf(element));
        }
        return path;
    }

    private static Violation toViolation(Error error) {
        String path = jsonPath(error.getInstanceLocation());
        String keyword = error.getKeyword() == null ? "" : error.getKeyword();
        if (keyword.equals("required") && error.getProperty() != null) {
            path = EnumNormalizer.childPath(path, error.getProperty());
        }
        return new Violation(path, keyword, error.getMessage());
    }
}
