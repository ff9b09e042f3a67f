package dev.pagantic.orchestrate.facade;

import static dev.pagantic.core.Preconditions.require;
import static dev.pagantic.core.Preconditions.requireNonNull;
import static dev.pagantic.core.Preconditions.requireText;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Preconditions;
import dev.pagantic.orchestrate.plan.ExecutionPlan;
import dev.pagantic.orchestrate.plan.PlanTrace;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A {@link Planner} without inference: it returns a fixed plan, or picks one with a function of the request (a lookup
 * table keyed by something in the request, say), and attaches a {@link PlanTrace}. This is the seed's "static plan
 * builder that returns hard-coded ExecutionPlans".
 *
 * <pre>{@code
 * Planner rag = StaticPlanner.of(ExecutionPlan.of(
 *         Step.of("retrieve", StepType.RETRIEVE), Step.of("rerank", StepType.RERANK), Step.of("answer", StepType.INFER)));
 *
 * Planner byMode = StaticPlanner.builder()
 *         .table(request -> request.hints().options().get("pipeline"), Map.of("rag", ragPlan, "direct", directPlan))
 *         .plannerId("pipelines")
 *         .build();
 * }</pre>
 *
 * <h2>The trace</h2>
 * Every plan returned carries a trace with the planner id ({@value #DEFAULT_PLANNER_ID} unless configured), a
 * rationale, {@link CallContext#now()} as its creation time and the plan's step count; a trace already attached to the
 * configured plan is replaced. The rationale is the configured one, or by default: {@value #FIXED_RATIONALE} for a
 * fixed plan, {@value #LOOKUP_RATIONALE} for a lookup function, and {@code "plan for key '<key>'"} for a table.
 *
 * <h2>Failures</h2>
 * {@code CONFIG_INVALID} when a lookup returns no plan (a table without an entry for the request's key, a function
 * that returns null) or fails with an exception other than a {@link PaganticException} (which propagates unchanged).
 * The plan is not checked against a {@link dev.pagantic.orchestrate.plan.PlanPolicy}: the executor does that before running
 * anything, and a static plan is the application's own.
 *
 * <p>Immutable and thread-safe when the lookup function is.
 */
public final class StaticPlanner implements Planner {

    /** The planner id recorded in traces unless another is configured. */
    public static final String DEFAULT_PLANNER_ID = "static";
    /** The default rationale of a fixed plan. */
    public static final String FIXED_RATIONALE = "fixed plan";
    /** The default rationale of a plan chosen by a lookup function. */
    public static final String LOOKUP_RATIONALE = "plan chosen by lookup";

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final String plannerId;
    private final Source lookup;
    private final String rationale; // null: the lookup's own

    private StaticPlanner(Builder builder) {
        this.plannerId = builder.plannerId;
        this.lookup = builder.lookup;
        this.rationale = builder.rationale;
    }

    /** A planner that always returns the given plan, with the default planner id and rationale. */
    public static StaticPlanner of(ExecutionPlan plan) {
        return builder().plan(plan).build();
    }

    /** A planner that returns the plan the function chooses for each request, with the default id and rationale. */
    public static StaticPlanner of(Function<SystemRequest, ExecutionPlan> lookup) {
        return builder().lookup(lookup).build();
    }

    /**
     * A planner for a plan written as JSON (a plan file): {@code {"rationale": "...", "steps": [{"name": "retrieve",
     * "type": "retrieve", "input": "..."}, {"name": "answer", "type": "infer"}]}}. A step without input takes the
     * previous step's output, and the first one the request's last user message. The rationale, when given, is the
     * trace's.
     *
     * @throws PaganticException {@code CONFIG_INVALID} when the text is not such a document (not JSON, no steps, a
     *                           blank, repeated or invalid name or type)
     */
    public static StaticPlanner fromJson(String json) {
        requireNonNull(json, "json");
        JsonNode document;
        try {
            document = JSON.readTree(json);
        } catch (JacksonException notJson) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "the plan is not JSON: "
                    + notJson.getOriginalMessage(), notJson);
        }
        JsonNode steps = document.path("steps");
        require(steps.isArray() && !steps.isEmpty(), "a plan needs a non-empty 'steps' array");
        String rationale = PlanJson.text(document.path("rationale"));
        Builder builder = builder().lookup(request -> {
            try {
                return ExecutionPlan.of(PlanJson.steps(steps, Set.of(), PlanJson.lastUserMessage(request)));
            } catch (PaganticException invalid) {
                throw PaganticException.of(ErrorCode.CONFIG_INVALID, "invalid plan: " + invalid.description(),
                        invalid);
            }
        });
        return (rationale.isBlank() ? builder : builder.rationale(rationale)).build();
    }

    /** Starts a planner; exactly one of {@link Builder#plan}, {@link Builder#lookup} and {@link Builder#table} is set. */
    public static Builder builder() {
        return new Builder();
    }

    /** The id recorded in the traces of this planner's plans. */
    public String plannerId() {
        return plannerId;
    }

    /**
     * The configured plan for the request, with a fresh trace.
     *
     * @throws PaganticException {@code CONFIG_INVALID} for a null argument or when the lookup finds no plan (see the
     *                           class description); a lookup's own {@link PaganticException} unchanged
     */
    @Override
    public ExecutionPlan createPlan(CallContext ctx, SystemRequest request) {
        requireNonNull(ctx, "ctx");
        requireNonNull(request, "request");
        Choice choice;
        try {
            choice = lookup.choose(request, plannerId);
        } catch (PaganticException failure) {
            throw failure;
        } catch (RuntimeException failure) {
            throw PaganticException.builder(ErrorCode.CONFIG_INVALID,
                            "planner '" + plannerId + "': the plan lookup failed: " + failure)
                    .cause(failure).detail("planner_id", plannerId).build();
        }
        ExecutionPlan plan = choice.plan();
        return plan.withTrace(PlanTrace.forPlan(plannerId, rationale != null ? rationale : choice.rationale(),
                ctx.now(), plan));
    }

    @Override
    public String toString() {
        return "StaticPlanner[" + plannerId + "]";
    }

    /** A chosen plan and the default rationale for choosing it. */
    private record Choice(ExecutionPlan plan, String rationale) {
    }

    /** Where plans come from: a fixed plan, a function or a table. */
    @FunctionalInterface
    private interface Source {
        Choice choose(SystemRequest request, String plannerId);
    }

    private static PaganticException noPlan(String plannerId, String message, String key) {
        PaganticException.Builder failure = PaganticException.builder(ErrorCode.CONFIG_INVALID,
                "planner '" + plannerId + "': " + message).detail("planner_id", plannerId);
        if (key != null) {
            failure.detail("key", key);
        }
        return failure.build();
    }

    /** Builds a {@link StaticPlanner}; checked at {@link #build()} with {@code CONFIG_INVALID}. */
    public static final class Builder {
        private String plannerId = DEFAULT_PLANNER_ID;
        private String rationale;
        private Source lookup;
        private int sources;

        private Builder() {
        }

        /** Always returns this plan (its trace, if any, is replaced). */
        public Builder plan(ExecutionPlan value) {
            ExecutionPlan plan = requireNonNull(value, "plan");
            Choice fixed = new Choice(plan, FIXED_RATIONALE);
            return source((request, id) -> fixed);
        }

        /** Returns the plan the function chooses for each request; the function must not return null. */
        public Builder lookup(Function<SystemRequest, ExecutionPlan> value) {
            Function<SystemRequest, ExecutionPlan> function = requireNonNull(value, "lookup");
            return source((request, id) -> {
                ExecutionPlan plan = function.apply(request);
                if (plan == null) {
                    throw noPlan(id, "the plan lookup returned no plan", null);
                }
                return new Choice(plan, LOOKUP_RATIONALE);
            });
        }

        /**
         * Returns the plan stored under the request's key: {@code key} extracts it from the request, {@code plans}
         * maps keys to plans (copied). A request whose key has no entry (or is null) fails with
         * {@code CONFIG_INVALID}, its key in the {@code key} detail.
         */
        public <K> Builder table(Function<SystemRequest, K> key, Map<K, ExecutionPlan> plans) {
            Function<SystemRequest, K> extract = requireNonNull(key, "key");
            requireNonNull(plans, "plans");
            Map<K, ExecutionPlan> copy = new LinkedHashMap<>();
            plans.forEach((k, plan) -> {
                require(k != null && plan != null, "a plan table must not hold null keys or plans");
                copy.put(k, plan);
            });
            return source((request, id) -> {
                K value = extract.apply(request);
                ExecutionPlan plan = value == null ? null : copy.get(value);
                if (plan == null) {
                    throw noPlan(id, "no plan for key '" + value + "' (known keys: " + copy.keySet() + ")",
                            String.valueOf(value));
                }
                return new Choice(plan, "plan for key '" + value + "'");
            });
        }

        /** The id recorded in traces; non-blank; {@value StaticPlanner#DEFAULT_PLANNER_ID} by default. */
        public Builder plannerId(String value) {
            this.plannerId = value;
            return this;
        }

        /**
         * The rationale recorded in every trace, replacing the default one (see the class description); null restores
         * the default.
         */
        public Builder rationale(String value) {
            this.rationale = value;
            return this;
        }

        private Builder source(Source value) {
            this.lookup = value;
            sources++;
            return this;
        }

        /**
         * The planner.
         *
         * @throws PaganticException {@code CONFIG_INVALID} for a blank planner id, or not exactly one of plan, lookup
         *                           and table
         */
        public StaticPlanner build() {
            requireText(plannerId, "plannerId");
            require(sources == 1, sources == 0
                    ? "a static planner needs a plan, a lookup function or a plan table"
                    : "a static planner takes exactly one of a plan, a lookup function and a plan table");
            return new StaticPlanner(this);
        }
    }
}
