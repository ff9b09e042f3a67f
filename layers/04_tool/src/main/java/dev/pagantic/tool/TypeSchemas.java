package dev.pagantic.tool;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import dev.pagantic.tool.annotation.Param;
import dev.pagantic.types.TypeSchemaGenerator;
import java.lang.reflect.Field;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.json.JsonMapper;

/**
 * The JSON Schema of a tool method's parameters, from the generator that also serves typed structured output
 * ({@link TypeSchemaGenerator}, whose package documents the JSON form of each Java type), configured for arguments:
 * <ul>
 *   <li>the JSON form is the tool's mapper's, the one that converts the arguments;</li>
 *   <li>an {@code Optional} or {@code @Nullable} record component may be left out and is never {@code null}
 *       (Jackson's {@code NON_ABSENT} inclusion), as an {@code Optional} parameter may;</li>
 *   <li>{@code @Param} on a record component describes it, and {@code @Param(required = false)} lets the model leave
 *       it out; {@code @Param(name)} there is refused, since the JSON property is the component's (or
 *       {@code @JsonProperty}'s) name.</li>
 * </ul>
 * All parameters are generated together, so that a record used by two parameters, or recursively, is defined once
 * under the parameters' {@code $defs}.
 */
final class TypeSchemas {

    private final TypeSchemaGenerator generator;

    TypeSchemas(JsonMapper mapper) {
        this.generator = TypeSchemaGenerator.builder()
                .mapper(mapper)
                .inclusion(JsonInclude.Include.NON_ABSENT)
                .descriptions(field -> param(field).map(Param::value).filter(text -> !text.isEmpty()))
                .omittable(field -> param(field).map(param -> !param.required()).orElse(false))
                .build();
    }

    /** Whether the type is {@code Optional<...>}. */
    static boolean isOptional(Type type) {
        return type == Optional.class
                || type instanceof ParameterizedType parameterized && parameterized.getRawType() == Optional.class;
    }

    /**
     * The schema of an object with the given parameters.
     *
     * @throws PaganticException {@code CONFIG_INVALID} naming the method when the schema is not accepted
     */
    Schema parameters(List<TypeSchemaGenerator.Property> parameters, String where) {
        Map<String, Object> document = generator.objectSchema(parameters);
        try {
            return Schema.fromJsonSchema(document);
        } catch (PaganticException refused) {
            throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "the parameters of tool method " + where
                            + " (" + parameters.stream().map(p -> p.type().getTypeName() + " " + p.name()).toList()
                            + ") have no schema pagantic accepts: " + refused.description())
                    .detail("method", where).cause(refused).build();
        }
    }

    private static Optional<Param> param(Field field) {
        Class<?> owner = field.getDeclaringClass();
        if (!owner.isRecord()) {
            return Optional.ofNullable(field.getAnnotation(Param.class));
        }
        for (RecordComponent component : owner.getRecordComponents()) {
            Param param = component.getAnnotation(Param.class);
            if (component.getName().equals(field.getName()) && param != null) {
                if (!param.name().isEmpty()) {
                    throw PaganticException.builder(ErrorCode.CONFIG_INVALID,
                            "@Param(name) is not supported on record components (" + owner.getName() + "."
                                    + component.getName() + "): the JSON property is the component's name")
                            .detail("type", owner.getName()).build();
                }
                return Optional.of(param);
            }
        }
        return Optional.empty();
    }
}
