package dev.pagantic.orchestrate.facade;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Adapters may call methods on core and facade types, on the two values the facade carries from other packages
 * (the request's {@link dev.pagantic.inference.InferenceSettings} and multi-model
 * {@link dev.pagantic.orchestrate.multimodel.Directive}) and on the types layer's {@code OutputType} (which the
 * response converts its structured output with) only, so everything reachable from the request's and the response's
 * accessors (and their builders) must be one of those or a JDK type.
 */
class AdapterVisibleTypesTest {

    private static final List<String> ALLOWED = List.of("java.", "dev.pagantic.core.",
            "dev.pagantic.orchestrate.facade.", "dev.pagantic.inference.InferenceSettings",
            "dev.pagantic.orchestrate.multimodel.Directive", "dev.pagantic.types.");

    @Test
    void theRequestAndResponseExposeOnlyJdkCoreFacadeTypesAndTheValuesTheyCarry() {
        Set<Class<?>> reachable = reachableFrom(SystemRequest.class, SystemResponse.class);

        assertThat(reachable).extracting(Class::getName)
                .allSatisfy(name -> assertThat(ALLOWED).anySatisfy(prefix -> assertThat(name).startsWith(prefix)))
                .contains(SystemError.class.getName(), ValidationResult.class.getName(),
                        ToolCallRecord.class.getName(), GrammarSource.class.getName());
    }

    /** The facade types reachable through record components and public methods, followed transitively. */
    private static Set<Class<?>> reachableFrom(Class<?>... roots) {
        Set<Class<?>> seen = new HashSet<>();
        Deque<Class<?>> todo = new ArrayDeque<>(List.of(roots));
        while (!todo.isEmpty()) {
            Class<?> type = todo.pop();
            if (!seen.add(type) || !type.getName().startsWith("dev.pagantic.orchestrate.facade.")) {
                continue;
            }
            if (type.isRecord()) {
                for (RecordComponent component : type.getRecordComponents()) {
                    collect(component.getGenericType(), todo);
                }
            }
            for (Class<?> nested : type.getDeclaredClasses()) {
                if (Modifier.isPublic(nested.getModifiers())) {
                    todo.add(nested);
                }
            }
            for (Method method : type.getMethods()) {
                if (method.getDeclaringClass() != type || isConversionFromOutside(type, method)) {
                    continue;
                }
                collect(method.getGenericReturnType(), todo);
                for (Type parameter : method.getGenericParameterTypes()) {
                    collect(parameter, todo);
                }
            }
        }
        return seen;
    }

    /**
     * The static conversions from band, inference and Jackson types ({@code from(ValidationReport)} and the like)
     * are for the facade's own use; what adapters read is what they return.
     */
    private static boolean isConversionFromOutside(Class<?> type, Method method) {
        return Modifier.isStatic(method.getModifiers())
                && (method.getName().equals("from") || method.getName().equals("stepName")
                        || type == JsonTrees.class);
    }

    private static void collect(Type type, Deque<Class<?>> todo) {
        if (type instanceof Class<?> plain) {
            Class<?> element = plain.isArray() ? plain.getComponentType() : plain;
            if (!element.isPrimitive()) {
                todo.add(element);
            }
        } else if (type instanceof ParameterizedType parameterized) {
            collect(parameterized.getRawType(), todo);
            for (Type argument : parameterized.getActualTypeArguments()) {
                collect(argument, todo);
            }
        } else if (type instanceof WildcardType wildcard) {
            for (Type bound : wildcard.getUpperBounds()) {
                collect(bound, todo);
            }
        } else if (type instanceof GenericArrayType array) {
            collect(array.getGenericComponentType(), todo);
        }
    }
}
