package dev.pagantic.tool;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.ToolDefinition;
import java.lang.reflect.Array;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.json.JsonMapper;

/** A tool backed by an annotated method; built by {@link AnnotatedTools}. */
final class MethodTool implements Tool {

    /** What a {@code void} method returns to the model, as in LangChain4j. */
    static final String VOID_RESULT = "Success";

    /** How one Java parameter is filled. */
    record Binding(String name, @Nullable JavaType type, Class<?> rawType, boolean optionalWrapper, boolean context) {
    }

    private final Object target;
    private final Method method;
    private final ToolDefinition definition;
    private final ArgumentValidator arguments;
    private final List<Binding> bindings;
    private final JsonMapper mapper;
    private final ToolSafety safety;
    private final Optional<Duration> timeout;
    private final boolean inline;

    MethodTool(Object target, Method method, ToolDefinition definition, List<Binding> bindings, JsonMapper mapper,
               ToolSafety safety, Optional<Duration> timeout, boolean inline) {
        this.target = target;
        this.method = method;
        this.definition = definition;
        this.arguments = ArgumentValidator.of(definition.parameters());
        this.bindings = List.copyOf(bindings);
        this.mapper = mapper;
        this.safety = safety;
        this.timeout = timeout;
        this.inline = inline;
    }

    @Override
    public ToolDefinition definition() {
        return definition;
    }

    @Override
    public ToolSafety safety() {
        return safety;
    }

    @Override
    public Optional<Duration> timeout() {
        return timeout;
    }

    @Override
    public boolean inline() {
        return inline;
    }

    /**
     * Checks the arguments against the schema, converts them to the parameter types with Jackson, invokes the method
     * and serialises what it returns. Arguments that do not fit fail with {@code TOOL_INVALID_ARGUMENTS} before the
     * method runs; what the method throws is rethrown as is (a checked exception too).
     */
    @Override
    public String execute(CallContext ctx, Map<String, Object> arguments) throws Exception {
        List<String> problems = this.arguments.problems(arguments);
        if (!problems.isEmpty()) {
            throw PaganticException.builder(ErrorCode.TOOL_INVALID_ARGUMENTS,
                            "invalid arguments for tool '" + definition.name() + "': " + String.join("; ", problems))
                    .detail("tool", definition.name()).detail("problems", problems).build();
        }
        Object[] values = new Object[bindings.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = convert(bindings.get(i), ctx, arguments);
        }
        Object returned;
        try {
            returned = method.invoke(target, values);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Exception exception) {
                throw exception;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw e;
        }
        if (method.getReturnType() == void.class) {
            return VOID_RESULT;
        }
        if (returned instanceof String text) {
            return text;
        }
        try {
            return mapper.writeValueAsString(returned);
        } catch (RuntimeException e) {
            throw PaganticException.builder(ErrorCode.TOOL_EXECUTION_FAILED,
                            "tool '" + definition.name() + "' returned a value that could not be written as JSON: "
                                    + e.getMessage())
                    .detail("tool", definition.name()).cause(e).build();
        }
    }

    private @Nullable Object convert(Binding binding, CallContext ctx, Map<String, Object> arguments) {
        if (binding.context()) {
            return ctx;
        }
        Object raw = arguments.get(binding.name());
        if (raw == null) {
            if (binding.optionalWrapper()) {
                return Optional.empty();
            }
            return binding.rawType().isPrimitive() ? Array.get(Array.newInstance(binding.rawType(), 1), 0) : null;
        }
        try {
            return mapper.convertValue(raw, binding.type());
        } catch (RuntimeException e) {
            throw PaganticException.builder(ErrorCode.TOOL_INVALID_ARGUMENTS,
                            "invalid arguments for tool '" + definition.name() + "': argument '" + binding.name()
                                    + "' cannot be converted to " + binding.type().toCanonical() + ": "
                                    + firstLine(e.getMessage()))
                    .detail("tool", definition.name()).detail("argument", binding.name()).cause(e).build();
        }
    }

    private static String firstLine(@Nullable String message) {
        if (message == null) {
            return "";
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }

    @Override
    public String toString() {
        return "Tool[" + definition.name() + " -> " + method.getDeclaringClass().getName() + "." + method.getName()
                + "]";
    }
}
