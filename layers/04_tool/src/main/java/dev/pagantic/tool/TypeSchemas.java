package dev.pagantic.tool;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import dev.pagantic.tool.annotation.Param;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Derives the JSON Schema of a Java type, for the parameters of annotated tools.
 *
 * <table>
 *   <caption>Supported types</caption>
 *   <tr><th>Java</th><th>Schema</th></tr>
 *   <tr><td>{@code String}, {@code char}, {@code Character}</td><td>string (a char: at most 1 character)</td></tr>
 *   <tr><td>{@code boolean}, {@code Boolean}</td><td>boolean</td></tr>
 *   <tr><td>{@code byte short int long}, boxes, {@code BigInteger}</td><td>integer</td></tr>
 *   <tr><td>{@code float double}, boxes, {@code BigDecimal}</td><td>number</td></tr>
 *   <tr><td>an enum</td><td>string enum of the constants' names</td></tr>
 *   <tr><td>a record</td><td>object of its components (an {@code Optional} component or one annotated
 *       {@code @Param(required = false)} is optional)</td></tr>
 *   <tr><td>{@code List<T>}, {@code Set<T>}, {@code Collection<T>}, {@code T[]}</td><td>array of T's schema</td></tr>
 *   <tr><td>{@code Optional<T>}</td><td>T's schema, not required</td></tr>
 * </table>
 * Anything else (maps, raw collections, type variables, recursive records, other classes) is refused at registration
 * with {@code CONFIG_INVALID}, naming where it was found.
 */
final class TypeSchemas {

    private TypeSchemas() {
    }

    /** Whether the type is {@code Optional<...>}. */
    static boolean isOptional(Type type) {
        return type == Optional.class
                || type instanceof ParameterizedType parameterized && parameterized.getRawType() == Optional.class;
    }

    /** The schema of the type; for {@code Optional<T>}, T's schema. */
    static Schema schemaOf(Type type, String where) {
        return schemaOf(type, where, new HashSet<>());
    }

    private static Schema schemaOf(Type type, String where, Set<Class<?>> visiting) {
        if (type instanceof Class<?> c) {
            return classSchema(c, where, visiting);
        }
        if (type instanceof ParameterizedType parameterized && parameterized.getRawType() instanceof Class<?> raw) {
            Type argument = parameterized.getActualTypeArguments()[0];
            if (raw == Optional.class) {
                return schemaOf(argument, where, visiting);
            }
            if ((raw == List.class || raw == Set.class || raw == Collection.class)
                    && parameterized.getActualTypeArguments().length == 1) {
                return Schema.arrayOf(schemaOf(argument, where + " (items)", visiting));
            }
        }
        if (type instanceof GenericArrayType array) {
            return Schema.arrayOf(schemaOf(array.getGenericComponentType(), where + " (items)", visiting));
        }
        throw unsupported(type, where);
    }

    private static Schema classSchema(Class<?> c, String where, Set<Class<?>> visiting) {
        if (c == String.class) {
            return Schema.string();
        }
        if (c == char.class || c == Character.class) {
            return Schema.string().withMaxLength(1);
        }
        if (c == boolean.class || c == Boolean.class) {
            return Schema.bool();
        }
        if (c == int.class || c == Integer.class || c == long.class || c == Long.class || c == short.class
                || c == Short.class || c == byte.class || c == Byte.class || c == BigInteger.class) {
            return Schema.integer();
        }
        if (c == double.class || c == Double.class || c == float.class || c == Float.class
                || c == BigDecimal.class) {
            return Schema.number();
        }
        if (c.isEnum()) {
            Object[] constants = c.getEnumConstants();
            String[] names = new String[constants.length];
            for (int i = 0; i < constants.length; i++) {
                names[i] = ((Enum<?>) constants[i]).name();
            }
            return Schema.enumOf(names);
        }
        if (c.isArray()) {
            return Schema.arrayOf(schemaOf(c.getComponentType(), where + " (items)", visiting));
        }
        if (c.isRecord()) {
            return recordSchema(c, where, visiting);
        }
        throw unsupported(c, where);
    }

    private static Schema recordSchema(Class<?> record, String where, Set<Class<?>> visiting) {
        if (!visiting.add(record)) {
            throw PaganticException.builder(ErrorCode.CONFIG_INVALID,
                    "record " + record.getName() + " refers to itself (" + where + "); recursive types have no "
                            + "finite tool schema").detail("type", record.getName()).build();
        }
        Schema.ObjectBuilder object = Schema.object();
        for (RecordComponent component : record.getRecordComponents()) {
            Param param = component.getAnnotation(Param.class);
            if (param != null && !param.name().isEmpty()) {
                throw PaganticException.builder(ErrorCode.CONFIG_INVALID,
                        "@Param(name) is not supported on record components (" + record.getName() + "."
                                + component.getName() + "): the JSON property is the component's name")
                        .detail("type", record.getName()).build();
            }
            Type componentType = component.getGenericType();
            Schema schema = schemaOf(componentType, where + "." + component.getName(), visiting);
            if (param != null && !param.value().isEmpty()) {
                schema = schema.withDescription(param.value());
            }
            boolean optional = isOptional(componentType) || param != null && !param.required();
            if (optional) {
                object.optional(component.getName(), schema);
            } else {
                object.required(component.getName(), schema);
            }
        }
        visiting.remove(record);
        return object.build();
    }

    private static PaganticException unsupported(Type type, String where) {
        return PaganticException.builder(ErrorCode.CONFIG_INVALID,
                        "unsupported tool parameter type " + type.getTypeName() + " (" + where + "); supported: "
                                + "String, char, boolean, numbers, enums, records, List/Set/Collection<T>, arrays, "
                                + "Optional<T>")
                .detail("type", type.getTypeName()).build();
    }
}
