package dev.pagantic.types;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.github.victools.jsonschema.generator.FieldScope;
import java.lang.annotation.Annotation;
import java.lang.reflect.Field;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * Decides whether a property is required and whether it may be {@code null}, as Jackson writes it under the
 * property's effective inclusion (see {@link TypeSchemaGenerator.Builder#inclusion}). References are non-null by
 * default: only an {@code Optional}-like type or a {@code @Nullable} annotation (any annotation of that simple name,
 * on the field or its type: JSpecify, Jakarta, JSR 305...) makes a property absent-able.
 */
final class Nullability {

    private static final Set<Class<?>> OPTIONALS = Set.of(Optional.class, OptionalInt.class, OptionalLong.class,
            OptionalDouble.class);

    private final JsonInclude.Include defaultInclusion;
    private final Predicate<Field> omittable;

    Nullability(JsonInclude.Include defaultInclusion, Predicate<Field> omittable) {
        this.defaultInclusion = defaultInclusion;
        this.omittable = omittable;
    }

    /** Whether the property may be left out of the JSON, so is not required. */
    boolean omitted(FieldScope field) {
        if (field.isFakeContainerItemScope()) {
            return false;
        }
        JsonInclude.Include inclusion = inclusion(field);
        return omittable.test(field.getRawMember())
                || inclusion == JsonInclude.Include.NON_EMPTY || inclusion == JsonInclude.Include.NON_DEFAULT
                || inclusion == JsonInclude.Include.CUSTOM
                || inclusion != JsonInclude.Include.ALWAYS && absentable(field);
    }

    /** Whether the property is written as {@code null} when it has no value. */
    boolean nullable(FieldScope field) {
        return !field.isFakeContainerItemScope() && absentable(field) && !omitted(field);
    }

    private static boolean absentable(FieldScope field) {
        Field raw = field.getRawMember();
        return OPTIONALS.contains(raw.getType())
                || Stream.concat(Stream.of(raw.getAnnotations()), Stream.of(raw.getAnnotatedType().getAnnotations()))
                        .map(Annotation::annotationType).anyMatch(type -> type.getSimpleName().equals("Nullable"));
    }

    private JsonInclude.Include inclusion(FieldScope field) {
        JsonInclude onProperty = field.getAnnotationConsideringFieldAndGetter(JsonInclude.class);
        if (onProperty != null && onProperty.value() != JsonInclude.Include.USE_DEFAULTS) {
            return onProperty.value();
        }
        JsonInclude onClass = field.getDeclaringType().getErasedType().getAnnotation(JsonInclude.class);
        if (onClass != null && onClass.value() != JsonInclude.Include.USE_DEFAULTS) {
            return onClass.value();
        }
        return defaultInclusion;
    }
}
