package dev.pagantic.types;

import com.github.victools.jsonschema.generator.Option;
import com.github.victools.jsonschema.generator.OptionPreset;
import com.github.victools.jsonschema.generator.SchemaBuilder;
import com.github.victools.jsonschema.generator.SchemaGenerator;
import com.github.victools.jsonschema.generator.SchemaGeneratorConfigBuilder;
import com.github.victools.jsonschema.generator.SchemaVersion;
import com.github.victools.jsonschema.generator.impl.module.FlattenedWrapperModule;
import com.github.victools.jsonschema.module.jackson.JacksonOption;
import com.github.victools.jsonschema.module.jackson.JacksonSchemaModule;
import com.fasterxml.jackson.annotation.JsonInclude;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import java.lang.reflect.Field;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.cfg.EnumFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Generates the JSON Schema (draft 2020-12) of a Java type: the JSON that the generator's Jackson mapper writes for a
 * value of the type and reads back into it. The schema is built by victools jsonschema-generator with its Jackson
 * module, configured as the package documentation describes, and read into a {@link Schema} with
 * {@link Schema#fromJsonSchema(Map)}.
 *
 * <pre>{@code
 * TypeSchemaGenerator generator = TypeSchemaGenerator.create();
 * Map<String, Object> document = generator.jsonSchema(Invoice.class);   // maps and lists, ready to serialise
 * OutputType<Invoice> invoice = generator.outputType(Invoice.class);    // schema + conversion back
 * }</pre>
 *
 * <p>Instances are immutable and safe to share between threads; generation is serialised internally because the
 * Jackson module caches what it has introspected.
 */
public final class TypeSchemaGenerator {

    /**
     * Enums by {@code name()} (Jackson 3 would otherwise use {@code toString()}, which classes override for display),
     * unknown properties and nulls for primitives refused. Jackson 3 mappers are immutable: sharing one is safe.
     */
    private static final JsonMapper DEFAULT_MAPPER = JsonMapper.builder()
            .disable(EnumFeature.READ_ENUMS_USING_TO_STRING)
            .disable(EnumFeature.WRITE_ENUMS_USING_TO_STRING)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private final JsonMapper mapper;
    private final SchemaGenerator generator;

    private TypeSchemaGenerator(Builder builder) {
        this.mapper = builder.mapper;
        JsonInclude.Include inclusion = builder.inclusion.orElseGet(() -> mapperInclusion(builder.mapper));
        Nullability nullability = new Nullability(inclusion, builder.omittable);
        SchemaGeneratorConfigBuilder config = new SchemaGeneratorConfigBuilder(mapper, SchemaVersion.DRAFT_2020_12,
                OptionPreset.PLAIN_JSON)
                .without(Option.FLATTENED_OPTIONALS) // it makes every Optional nullable; Nullability decides instead
                .with(new FlattenedWrapperModule<>(Optional.class))
                .with(Option.MAP_VALUES_AS_ADDITIONAL_PROPERTIES, Option.FORBIDDEN_ADDITIONAL_PROPERTIES_BY_DEFAULT)
                .with(new JacksonSchemaModule(JacksonOption.RESPECT_JSONPROPERTY_REQUIRED));
        config.forTypesInGeneral()
                .withPropertySorter(new DeclarationOrder(mapper))
                .withCustomDefinitionProvider(new JavaTypeDefinitions(mapper));
        config.forFields()
                .withRequiredCheck(field -> !nullability.omitted(field))
                .withNullableCheck(field -> nullability.nullable(field))
                .withDescriptionResolver(field -> builder.descriptions.apply(field.getRawMember()).orElse(null));
        this.generator = new SchemaGenerator(config.build());
    }

    /** A generator with the {@linkplain #defaultMapper() default mapper} and its inclusion (every property written). */
    public static TypeSchemaGenerator create() {
        return builder().build();
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The mapper used when none is given: Jackson 3's defaults, except that enums are read and written by
     * {@code name()}, and unknown properties, nulls for primitives and trailing tokens are refused.
     */
    public static JsonMapper defaultMapper() {
        return DEFAULT_MAPPER;
    }

    /** The mapper whose JSON form the schemas describe and that {@link OutputType}s convert with. */
    public JsonMapper mapper() {
        return mapper;
    }

    /**
     * The JSON Schema document of the type, as nested maps and lists in the order the generator wrote them; a type
     * used more than once, or recursively, is defined once under {@code $defs} and referenced.
     *
     * @param type a {@link Class} or a generic type such as {@code List<Invoice>}
     */
    public Map<String, Object> jsonSchema(Type type) {
        Objects.requireNonNull(type, "type");
        ObjectNode schema;
        synchronized (generator) {
            schema = generator.generateSchema(type);
        }
        return document(schema);
    }

    /**
     * The {@link Schema} of the type: {@link #jsonSchema(Type)} read by {@link Schema#fromJsonSchema(Map)}.
     *
     * @throws PaganticException {@code CONFIG_INVALID} naming the type when the schema reader refuses the document
     */
    public Schema schema(Type type) {
        return read(jsonSchema(type), type.getTypeName());
    }

    /**
     * The schema of a JSON object whose properties have the given Java types, in the given order: the shape of a
     * method's parameters. Types used more than once share one {@code $defs} entry at the document's root. A
     * property of type {@code Optional<T>} has T's schema; whether it may be left out is its {@code required}.
     */
    public Map<String, Object> objectSchema(List<Property> properties) {
        Map<String, Object> document = new LinkedHashMap<>();
        Map<String, Object> schemas = new LinkedHashMap<>();
        List<String> required = new ArrayList<>();
        synchronized (generator) {
            SchemaBuilder builder = generator.buildMultipleSchemaDefinitions();
            Map<String, ObjectNode> references = new LinkedHashMap<>();
            for (Property property : properties) {
                references.put(property.name(), builder.createSchemaReference(withoutOptional(property.type())));
            }
            ObjectNode definitions = builder.collectDefinitions("$defs");
            references.forEach((name, node) -> schemas.put(name, document(node)));
            if (!definitions.isEmpty()) {
                document.put("$defs", document(definitions));
            }
        }
        for (Property property : properties) {
            if (!property.description().isEmpty()) {
                @SuppressWarnings("unchecked")
                Map<String, Object> schema = (Map<String, Object>) schemas.get(property.name());
                schema.put("description", property.description());
            }
            if (property.required()) {
                required.add(property.name());
            }
        }
        document.put("type", "object");
        document.put("properties", schemas);
        if (!required.isEmpty()) {
            document.put("required", required);
        }
        document.put("additionalProperties", false);
        return document;
    }

    /** The output type of a class: its schema and the conversion of validated JSON back to it. */
    public <T> OutputType<T> outputType(Class<T> type) {
        return new OutputType<>(this, type);
    }

    /** The output type of a generic type, such as {@code new TypeReference<List<Invoice>>() {}}. */
    public <T> OutputType<T> outputType(TypeReference<T> type) {
        return new OutputType<>(this, type.getType());
    }

    static Schema read(Map<String, Object> document, String typeName) {
        try {
            return Schema.fromJsonSchema(document);
        } catch (PaganticException refused) {
            throw PaganticException.builder(ErrorCode.CONFIG_INVALID,
                            "the JSON Schema generated for " + typeName + " is not accepted: " + refused.description())
                    .detail("type", typeName).cause(refused).build();
        }
    }

    /** A property's {@code Optional<T>} has T's schema: whether it may be left out is its {@code required}. */
    private static Type withoutOptional(Type type) {
        return type instanceof ParameterizedType parameterized && parameterized.getRawType() == Optional.class
                ? parameterized.getActualTypeArguments()[0] : type;
    }

    private Map<String, Object> document(JsonNode node) {
        return mapper.convertValue(node, new TypeReference<LinkedHashMap<String, Object>>() {
        });
    }

    private static JsonInclude.Include mapperInclusion(JsonMapper mapper) {
        JsonInclude.Include include = mapper.serializationConfig().getDefaultPropertyInclusion().getValueInclusion();
        return include == JsonInclude.Include.USE_DEFAULTS ? JsonInclude.Include.ALWAYS : include;
    }

    /**
     * A named property of {@link #objectSchema(List)}.
     *
     * @param name        the JSON property name
     * @param type        its Java type
     * @param description what it means, for the model; may be empty
     * @param required    whether it must be present
     */
    public record Property(String name, Type type, String description, boolean required) {

        public Property {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(description, "description");
        }
    }

    /** Collects a generator's settings; {@link #build()} validates them. */
    public static final class Builder {
        private JsonMapper mapper = DEFAULT_MAPPER;
        private Optional<JsonInclude.Include> inclusion = Optional.empty();
        private Function<Field, Optional<String>> descriptions = field -> Optional.empty();
        private Predicate<Field> omittable = field -> false;

        private Builder() {
        }

        /** The mapper whose JSON form the schemas describe; {@link #defaultMapper()} by default. */
        public Builder mapper(JsonMapper value) {
            this.mapper = Objects.requireNonNull(value, "mapper");
            return this;
        }

        /**
         * Which properties the model may leave out, as Jackson's inclusion would: with {@code ALWAYS} (the default,
         * unless the mapper's default inclusion says otherwise) every property is required and an {@code Optional}
         * or {@code @Nullable} one may be {@code null}, the form OpenAI's strict mode expects; with
         * {@code NON_NULL} or {@code NON_ABSENT} such a property may be left out and is never {@code null};
         * {@code NON_EMPTY} and {@code NON_DEFAULT} let any property be left out. {@code @JsonInclude} on a class or
         * a property overrides it.
         */
        public Builder inclusion(JsonInclude.Include value) {
            Objects.requireNonNull(value, "inclusion");
            this.inclusion = Optional.of(value == JsonInclude.Include.USE_DEFAULTS ? JsonInclude.Include.ALWAYS
                    : value);
            return this;
        }

        /**
         * Descriptions beyond Jackson's {@code @JsonPropertyDescription}, read from a property's field (for a
         * record, the component's field); for example from an annotation of the caller's own.
         */
        public Builder descriptions(Function<Field, Optional<String>> resolver) {
            this.descriptions = Objects.requireNonNull(resolver, "descriptions");
            return this;
        }

        /** Properties that may be left out whatever their type, decided by their field. */
        public Builder omittable(Predicate<Field> predicate) {
            this.omittable = Objects.requireNonNull(predicate, "omittable");
            return this;
        }

        /** The generator. */
        public TypeSchemaGenerator build() {
            return new TypeSchemaGenerator(this);
        }
    }
}
