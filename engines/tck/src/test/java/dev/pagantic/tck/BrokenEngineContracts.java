package dev.pagantic.tck;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Cancellation;
import dev.pagantic.core.Registration;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.core.ToolCall;
import dev.pagantic.inference.Capability;
import dev.pagantic.inference.Engine;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.StreamHandler;
import dev.pagantic.inference.grammar.GbnfGrammar;
import dev.pagantic.testkit.ScriptedEngine;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Contract subclasses for deliberately broken engines, each with one realistic bug, for
 * {@link EngineContractKitCatchesBrokenEnginesTest} to run. Their names match none of surefire's test patterns, and
 * they only run when that test sets {@link RunOnlyWhenProvingTheKit#PARAMETER}, so neither the build nor an IDE's
 * "run all tests" reports their (intended) failures.
 */
final class BrokenEngineContracts {

    private BrokenEngineContracts() {
    }

    /** Disables a broken contract unless the kit's proof runs it. */
    static final class RunOnlyWhenProvingTheKit implements ExecutionCondition {
        static final String PARAMETER = "pagantic.testkit.run-broken-engine-contracts";

        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            boolean proving = context.getConfigurationParameter(PARAMETER).map(Boolean::parseBoolean).orElse(false);
            return proving ? ConditionEvaluationResult.enabled("run by the contract kit's proof")
                    : ConditionEvaluationResult.disabled("a deliberately broken engine; run only by "
                            + EngineContractKitCatchesBrokenEnginesTest.class.getSimpleName());
        }
    }

    /** A broken contract: the healthy scripted fixture except for the one flaw its subclass adds. */
    @ExtendWith(RunOnlyWhenProvingTheKit.class)
    abstract static class BrokenContract extends EngineContractTest {
        static Engine healthy(Scenario scenario) {
            return ContractScripts.healthy(scenario);
        }
    }

    /** Forgets to pass {@code maxTokens} to its backend. */
    static final class BrokenMaxTokensContract extends BrokenContract {
        @Override
        protected Engine createEngine(Scenario scenario) {
            return new ForwardingEngine(healthy(scenario)) {
                @Override
                public Result infer(CallContext context, Request request) {
                    return delegate.infer(context, request.toBuilder().maxTokens(0).build());
                }
            };
        }
    }

    /** Never reads the backend's usage. */
    static final class BrokenUsageContract extends BrokenContract {
        @Override
        protected Engine createEngine(Scenario scenario) {
            return new ForwardingEngine(healthy(scenario)) {
                @Override
                public Result infer(CallContext context, Request request) {
                    return delegate.infer(context, request).toBuilder().usage(TokenUsage.ZERO).build();
                }

                @Override
                public Result infer(CallContext context, Request request, StreamHandler handler) {
                    return delegate.infer(context, request, handler).toBuilder().usage(TokenUsage.ZERO).build();
                }
            };
        }
    }

    /** Strips whitespace from every streamed delta, so the deltas no longer rebuild the content. */
    static final class BrokenDeltasContract extends BrokenContract {
        @Override
        protected Engine createEngine(Scenario scenario) {
            return new ForwardingEngine(healthy(scenario)) {
                @Override
                public Result infer(CallContext context, Request request, StreamHandler handler) {
                    return delegate.infer(context, request, new StreamHandler() {
                        @Override
                        public void onContent(String delta) {
                            handler.onContent(delta.strip());
                        }

                        @Override
                        public void onReasoning(String delta) {
                            handler.onReasoning(delta);
                        }

                        @Override
                        public void onToolCall(ToolCall call) {
                            handler.onToolCall(call);
                        }
                    });
                }
            };
        }
    }

    /** Runs its backend with a context that keeps the deadline but drops the caller's cancellation. */
    static final class BrokenCancellationContract extends BrokenContract {
        @Override
        protected Engine createEngine(Scenario scenario) {
            return new ForwardingEngine(healthy(scenario)) {
                @Override
                public Result infer(CallContext context, Request request) {
                    return delegate.infer(withoutCancellation(context), request);
                }

                @Override
                public Result infer(CallContext context, Request request, StreamHandler handler) {
                    return delegate.infer(withoutCancellation(context), request, handler);
                }
            };
        }

        static CallContext withoutCancellation(CallContext context) {
            CallContext.Builder stripped = CallContext.builder().clock(context.clock());
            context.deadline().ifPresent(stripped::deadline);
            return stripped.build();
        }
    }

    /** Checks cancellation before and after generating, but not between tokens: it streams on after a cancel. */
    static final class BrokenLateCancellationContract extends BrokenContract {
        @Override
        protected Engine createEngine(Scenario scenario) {
            return new ForwardingEngine(healthy(scenario)) {
                @Override
                public Result infer(CallContext context, Request request, StreamHandler handler) {
                    context.throwIfDone();
                    Result result = delegate.infer(BrokenCancellationContract.withoutCancellation(context), request,
                            handler);
                    context.throwIfDone();
                    return result;
                }
            };
        }
    }

    /** Runs its backend with a context that follows the caller's cancellation but has no deadline. */
    static final class BrokenDeadlineContract extends BrokenContract {
        @Override
        protected Engine createEngine(Scenario scenario) {
            return new ForwardingEngine(healthy(scenario)) {
                @Override
                public Result infer(CallContext context, Request request) {
                    return infer(context, request, StreamHandler.NOOP);
                }

                @Override
                public Result infer(CallContext context, Request request, StreamHandler handler) {
                    Cancellation cancellation = new Cancellation();
                    Registration bridge = context.onCancel(cancellation::cancel);
                    try {
                        return delegate.infer(CallContext.builder().cancellation(cancellation).build(), request,
                                handler);
                    } finally {
                        bridge.close();
                    }
                }
            };
        }
    }

    /** Does not parse the model's tool calls. */
    static final class BrokenToolCallsContract extends BrokenContract {
        @Override
        protected Engine createEngine(Scenario scenario) {
            return new ForwardingEngine(healthy(scenario)) {
                @Override
                public Result infer(CallContext context, Request request) {
                    return withoutToolCalls(delegate.infer(context, request));
                }

                @Override
                public Result infer(CallContext context, Request request, StreamHandler handler) {
                    return withoutToolCalls(delegate.infer(context, request, new StreamHandler() {
                        @Override
                        public void onContent(String delta) {
                            handler.onContent(delta);
                        }

                        @Override
                        public void onReasoning(String delta) {
                            handler.onReasoning(delta);
                        }
                    }));
                }
            };
        }

        private static Result withoutToolCalls(Result result) {
            return result.toBuilder().toolCalls(List.of()).build();
        }
    }

    /** Declares GRAMMAR but never applies the grammar, so the model answers freely. */
    static final class BrokenGrammarContract extends BrokenContract {
        @Override
        protected Engine createEngine(Scenario scenario) {
            EnumSet<Capability> capabilities = EnumSet.copyOf(ContractScripts.DEFAULT_CAPABILITIES);
            capabilities.add(Capability.GRAMMAR);
            if (scenario == Scenario.GRAMMAR) {
                return ScriptedEngine.builder().capabilities(capabilities).reply("Maybe, it depends on the weather.")
                        .build();
            }
            return ContractScripts.healthy(scenario, capabilities);
        }
    }

    /** Lets its backend's exception escape unwrapped. */
    static final class BrokenBackendFailureContract extends BrokenContract {
        @Override
        protected Engine createEngine(Scenario scenario) {
            if (scenario != Scenario.BACKEND_FAILURE) {
                return healthy(scenario);
            }
            return new ForwardingEngine(healthy(Scenario.SIMPLE_COMPLETION)) {
                @Override
                public Result infer(CallContext context, Request request) {
                    throw new IllegalStateException("connection reset by peer");
                }

                @Override
                public Result infer(CallContext context, Request request, StreamHandler handler) {
                    throw new IllegalStateException("connection reset by peer");
                }
            };
        }
    }

    /** Forgets to close its backend, so it keeps answering after close. */
    static final class BrokenCloseContract extends BrokenContract {
        @Override
        protected Engine createEngine(Scenario scenario) {
            return new ForwardingEngine(healthy(scenario)) {
                @Override
                public void close() {
                    // the bug: nothing is released and nothing is refused afterwards
                }
            };
        }
    }

    /** Skips the capability check and drops the grammar and schema its backend does not understand. */
    static final class BrokenCapabilityCheckContract extends BrokenContract {
        @Override
        protected Engine createEngine(Scenario scenario) {
            return new ForwardingEngine(healthy(scenario)) {
                @Override
                public Result infer(CallContext context, Request request) {
                    return delegate.infer(context,
                            request.toBuilder().grammar((GbnfGrammar) null).schema(null).build());
                }
            };
        }
    }

    /** Forgets to pass the stop strings to its backend. */
    static final class BrokenStopContract extends BrokenContract {
        @Override
        protected Engine createEngine(Scenario scenario) {
            return new ForwardingEngine(healthy(scenario)) {
                @Override
                public Result infer(CallContext context, Request request) {
                    return delegate.infer(context,
                            request.toBuilder().settings(request.settings().toBuilder().stop(List.of()).build())
                                    .build());
                }
            };
        }
    }

    /** Declares SEED but samples from its own random source, whatever the request's seed. */
    static final class BrokenSeedContract extends BrokenContract {
        @Override
        protected Engine createEngine(Scenario scenario) {
            String sampled = Long.toString(new Random().nextLong() & Long.MAX_VALUE, 36);
            return new ForwardingEngine(healthy(scenario)) {
                @Override
                public Result infer(CallContext context, Request request) {
                    Result result = delegate.infer(context, request);
                    return result.toBuilder().content(result.content() + sampled).build();
                }
            };
        }
    }

    /** Declares STREAMING but delivers the whole reply once, after generating it. */
    static final class BrokenStreamingContract extends BrokenContract {
        @Override
        protected Engine createEngine(Scenario scenario) {
            return new ForwardingEngine(healthy(scenario)) {
                @Override
                public Result infer(CallContext context, Request request, StreamHandler handler) {
                    Result result = delegate.infer(context, request);
                    if (!result.reasoning().isEmpty()) {
                        handler.onReasoning(result.reasoning());
                    }
                    if (!result.content().isEmpty()) {
                        handler.onContent(result.content());
                    }
                    result.toolCalls().forEach(handler::onToolCall);
                    return result;
                }
            };
        }
    }
}
