package dev.pagantic.orchestrate.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.ToolCall;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class InterceptorTest {

    private final CallContext ctx = CallContext.background();
    private final ToolCall call = ToolCall.of("call_1", "weather", Map.of("city", "Paris"));
    private final AtomicInteger runs = new AtomicInteger();
    private final List<String> trace = new ArrayList<>();

    private Invocation<String> toolInvocation() {
        return Invocation.of(InvocationKind.TOOL_CALL, "weather", ctx, call, () -> {
            runs.incrementAndGet();
            trace.add("work");
            return "sunny";
        });
    }

    private Interceptor recording(String name) {
        return new Interceptor() {
            @Override
            public <T> T intercept(Invocation<T> invocation) {
                trace.add(name + " before " + invocation.kind() + " " + invocation.name());
                T result = invocation.proceed();
                trace.add(name + " after");
                return result;
            }
        };
    }

    @Test
    void theDefaultInterceptorRunsTheWorkOnce() {
        assertThat(Interceptor.NONE.intercept(toolInvocation())).isEqualTo("sunny");
        assertThat(runs).hasValue(1);
    }

    @Test
    void aChainWrapsTheWorkOutermostFirst() {
        Interceptor chain = Interceptor.chain(recording("a"), recording("b"));

        String result = chain.intercept(toolInvocation());

        assertThat(result).isEqualTo("sunny");
        assertThat(trace).containsExactly("a before TOOL_CALL weather", "b before TOOL_CALL weather", "work",
                "b after", "a after");
        assertThat(runs).hasValue(1);
    }

    @Test
    void anInterceptorMayAnswerWithoutProceedingAsAReplayingDurableRunnerDoes() {
        Interceptor replay = new Interceptor() {
            @Override
            @SuppressWarnings("unchecked")
            public <T> T intercept(Invocation<T> invocation) {
                return (T) "sunny (replayed)";
            }
        };

        assertThat(Interceptor.chain(recording("outer"), replay).intercept(toolInvocation()))
                .isEqualTo("sunny (replayed)");
        assertThat(runs).hasValue(0);
    }

    @Test
    void theWorksFailurePropagatesThroughTheChainUnchanged() {
        PaganticException failure = PaganticException.of(ErrorCode.TOOL_EXECUTION_FAILED, "down");
        Invocation<String> failing = Invocation.of(InvocationKind.TOOL_CALL, "weather", ctx, call, () -> {
            throw failure;
        });

        assertThatThrownBy(() -> Interceptor.chain(recording("a"), recording("b")).intercept(failing))
                .isSameAs(failure);
        assertThat(trace).containsExactly("a before TOOL_CALL weather", "b before TOOL_CALL weather");
    }

    @Test
    void interceptorsSeeTheInvocationsInputAndContext() {
        List<Object> inputs = new ArrayList<>();
        Interceptor inspecting = new Interceptor() {
            @Override
            public <T> T intercept(Invocation<T> invocation) {
                inputs.add(invocation.input());
                assertThat(invocation.context()).isSameAs(ctx);
                return invocation.proceed();
            }
        };

        Interceptor.chain(inspecting, inspecting).intercept(toolInvocation());

        assertThat(inputs).containsExactly(call, call);
    }

    @Test
    void anEmptyChainIsTheDefaultInterceptor() {
        assertThat(Interceptor.chain(List.of())).isSameAs(Interceptor.NONE);
    }
}
