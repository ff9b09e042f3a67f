package dev.pagantic.orchestrate.spi;

import dev.pagantic.core.CallContext;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * A unit of work on its way through the {@link Interceptor}s: what it is, under which context, with which input, and
 * how to run it. {@link #proceed()} runs the next interceptor or, at the end of the chain, the work itself.
 *
 * @param <T> the result type
 */
public final class Invocation<T> {

    private final InvocationKind kind;
    private final String name;
    private final CallContext context;
    private final Object input;
    private final Supplier<T> work;

    private Invocation(InvocationKind kind, String name, CallContext context, Object input, Supplier<T> work) {
        this.kind = Objects.requireNonNull(kind, "kind");
        this.name = Objects.requireNonNull(name, "name");
        this.context = Objects.requireNonNull(context, "context");
        this.input = Objects.requireNonNull(input, "input");
        this.work = Objects.requireNonNull(work, "work");
    }

    /**
     * An invocation of the given work.
     *
     * @param name  what runs: the model name, the tool name, or the step name
     * @param input the work's input (see {@link InvocationKind}), for interceptors that record or route work
     */
    public static <T> Invocation<T> of(InvocationKind kind, String name, CallContext context, Object input,
                                       Supplier<T> work) {
        return new Invocation<>(kind, name, context, input, work);
    }

    public InvocationKind kind() {
        return kind;
    }

    public String name() {
        return name;
    }

    public CallContext context() {
        return context;
    }

    public Object input() {
        return input;
    }

    /** Runs the rest of the chain and returns its result; exceptions of the work propagate unchanged. */
    public T proceed() {
        return work.get();
    }

    /** This invocation with different work, for an interceptor that wraps the rest of the chain. */
    Invocation<T> withWork(Supplier<T> next) {
        return new Invocation<>(kind, name, context, input, next);
    }

    @Override
    public String toString() {
        return "Invocation[" + kind + " " + name + " request=" + context.requestId() + "]";
    }
}
