package dev.pagantic.tool;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.tool.annotation.Param;
import dev.pagantic.types.TypeSchemaGenerator;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.lang.reflect.Type;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.json.JsonMapper;

/**
 * Turns the {@link dev.pagantic.tool.annotation.Tool @Tool} methods of a plain object into {@link Tool}s, as
 * LangChain4j users expect.
 *
 * <ul>
 *   <li><b>Discovery</b>: every method annotated {@code @Tool} declared by the object's class or a superclass (any
 *       visibility; an override hides the method it overrides). The tools are returned in tool-name order, because
 *       reflection does not report methods in source order.</li>
 *   <li><b>Name and description</b>: {@code @Tool(name)} or the method's name; {@code @Tool(value)}.</li>
 *   <li><b>Parameters</b>: named by {@code @Param(name)} or by the Java parameter name (the build compiles with
 *       {@code -parameters}; without it and without {@code @Param(name)} registration fails). Required unless the
 *       type is {@code Optional<T>} or the parameter is annotated {@code @Param(required = false)}. A parameter of
 *       type {@link CallContext} receives the tool's context and is not part of the schema. The schema of each
 *       type is derived by the generator that also serves typed structured output ({@link TypeSchemas}): primitives and
 *       boxes, strings, enums, records (recursive ones too), lists, sets, arrays, optionals, maps with string keys,
 *       {@code java.time} types, {@code Object} (any JSON value).</li>
 *   <li><b>Arguments</b>: checked against the derived schema, then converted with Jackson
 *       ({@code convertValue}). A missing required argument, an unexpected one or a type mismatch fails with
 *       {@code TOOL_INVALID_ARGUMENTS} and never reaches the method.</li>
 *   <li><b>Results</b>: a {@code String} is returned as is, {@code void} as {@code "Success"}, anything else as JSON
 *       written by the mapper. What the method throws surfaces as {@code TOOL_EXECUTION_FAILED} in the executor.</li>
 *   <li><b>Safety</b>: {@code @Tool(readOnly = true)} gives {@link SideEffect#READ} (parallel-safe), otherwise
 *       {@link SideEffect#UNKNOWN}; {@code @Tool(idempotent = true)} marks retries as safe.</li>
 * </ul>
 */
public final class AnnotatedTools {

    private AnnotatedTools() {
    }

    /** The mapper used when none is given: enums by name, unknown properties refused. */
    public static JsonMapper defaultMapper() {
        return Json.DEFAULT;
    }

    /** The tools of the object's {@code @Tool} methods, converting with the default mapper. */
    public static List<Tool> from(Object target) {
        return from(target, Json.DEFAULT);
    }

    /**
     * The tools of the object's {@code @Tool} methods, converting arguments and results with the given mapper.
     *
     * @throws PaganticException {@code CONFIG_INVALID} when the object has no {@code @Tool} method, a method cannot
     *                           be made accessible, a parameter has no name or an unsupported type, or a name is
     *                           invalid
     */
    public static List<Tool> from(Object target, JsonMapper mapper) {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(mapper, "mapper");
        List<Tool> tools = new ArrayList<>();
        TypeSchemas schemas = new TypeSchemas(mapper);
        for (Method method : annotatedMethods(target.getClass())) {
            tools.add(toolOf(target, method, mapper, schemas));
        }
        if (tools.isEmpty()) {
            throw PaganticException.builder(ErrorCode.CONFIG_INVALID,
                    target.getClass().getName() + " has no @Tool methods").build();
        }
        tools.sort(Comparator.comparing(Tool::name));
        return List.copyOf(tools);
    }

    private static List<Method> annotatedMethods(Class<?> type) {
        List<Method> found = new ArrayList<>();
        Set<String> signatures = new HashSet<>();
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Method method : c.getDeclaredMethods()) {
                if (method.isBridge() || method.isSynthetic()) {
                    continue;
                }
                String signature = method.getName() + Arrays.toString(method.getParameterTypes());
                boolean overridden = !Modifier.isPrivate(method.getModifiers()) && !signatures.add(signature);
                if (!overridden && method.isAnnotationPresent(dev.pagantic.tool.annotation.Tool.class)) {
                    found.add(method);
                }
            }
        }
        return found;
    }

    private static Tool toolOf(Object target, Method method, JsonMapper mapper, TypeSchemas schemas) {
        dev.pagantic.tool.annotation.Tool annotation = method.getAnnotation(dev.pagantic.tool.annotation.Tool.class);
        String where = method.getDeclaringClass().getName() + "." + method.getName();
        String name = annotation.name().isEmpty() ? method.getName() : annotation.name();
        if (!method.trySetAccessible()) {
            throw PaganticException.builder(ErrorCode.CONFIG_INVALID,
                    "tool method " + where + " cannot be made accessible (open its package to pagantic)")
                    .detail("tool", name).build();
        }
        if (annotation.timeoutMillis() < 0) {
            throw PaganticException.builder(ErrorCode.CONFIG_INVALID,
                    "tool " + where + " has a negative timeout").detail("tool", name).build();
        }
        List<TypeSchemaGenerator.Property> parameters = new ArrayList<>();
        List<MethodTool.Binding> bindings = new ArrayList<>();
        for (Parameter parameter : method.getParameters()) {
            Type type = parameter.getParameterizedType();
            if (parameter.getType() == CallContext.class) {
                bindings.add(new MethodTool.Binding("", null, CallContext.class, false, true));
                continue;
            }
            Param param = parameter.getAnnotation(Param.class);
            String paramName = param != null && !param.name().isEmpty() ? param.name() : null;
            if (paramName == null) {
                if (!parameter.isNamePresent()) {
                    throw PaganticException.builder(ErrorCode.CONFIG_INVALID,
                            "parameter " + parameter.getName() + " of tool method " + where + " has no name: compile "
                                    + "with -parameters or annotate it with @Param(name = ...)")
                            .detail("tool", name).build();
                }
                paramName = parameter.getName();
            }
            boolean optionalWrapper = TypeSchemas.isOptional(type);
            parameters.add(new TypeSchemaGenerator.Property(paramName, type, param == null ? "" : param.value(),
                    !optionalWrapper && (param == null || param.required())));
            bindings.add(new MethodTool.Binding(paramName, mapper.getTypeFactory().constructType(type),
                    parameter.getType(), optionalWrapper, false));
        }
        ToolDefinition definition = ToolDefinition.of(name, annotation.value(), schemas.parameters(parameters, where));
        ToolSafety safety = ToolSafety.of(annotation.readOnly() ? SideEffect.READ : SideEffect.UNKNOWN,
                annotation.idempotent());
        Optional<Duration> timeout = annotation.timeoutMillis() == 0 ? Optional.empty()
                : Optional.of(Duration.ofMillis(annotation.timeoutMillis()));
        return new MethodTool(target, method, definition, bindings, mapper, safety, timeout, annotation.inline());
    }
}
